import { z } from 'zod';
import { userInfoSchema } from './auth.js';

export const imageDisplayValues = ['always', 'never', 'correspondent'] as const;
export const signatureAddValues = ['always', 'response', 'new_message'] as const;
export const themeValues = ['system', 'light', 'dark'] as const;
export const languageValues = ['en', 'ru'] as const;
/** How long a sent message is held on the server so that it can be taken back (Settings › General, issue 31). */
export const undoSendSecondsValues = [0, 5, 10, 20, 30] as const;
/** How often (minutes) the wallet application may be told of new mail: 0 never, at most once a day (SPEC §9). */
export const NOTIFY_MINUTES_MAX = 1440;

/** SPEC §3 Settings. */
export const settingsSchema = z.object({
  per_page: z.number().int().min(5).max(200),
  unread_first: z.boolean(),
  message_thread: z.boolean(),
  slim_list_aliases: z.boolean(),
  image_display: z.enum(imageDisplayValues),
  message_preview: z.boolean(),
  slim_template: z.boolean(),
  signature_reply: z.boolean(),
  signature_add: z.enum(signatureAddValues),
  /** The interface language; null: the cookie, else the browser's (SPEC §9). Saving it also sets the cookie. */
  language: z.enum(languageValues).nullable(),
  /** Minutes between notices of new mail to the member's wallet application; 0 turns them off. */
  notify_minutes: z.number().int().min(0).max(NOTIFY_MINUTES_MAX),
  /** Light, dark, or as the system says. */
  theme: z.enum(themeValues),
  /** Mail from a contact (or an address written to) whose domain proved itself stays out of Junk. */
  trust_contacts: z.boolean(),
  /** Seconds every sent message waits in Scheduled, with an Undo offered; 0 sends at once. */
  undo_send_seconds: z.union([z.literal(0), z.literal(5), z.literal(10), z.literal(20), z.literal(30)]),
});
export type Settings = z.infer<typeof settingsSchema>;

export const defaultSettings: Settings = {
  per_page: 30,
  unread_first: false,
  message_thread: false,
  slim_list_aliases: false,
  image_display: 'correspondent',
  message_preview: true,
  slim_template: false,
  signature_reply: true,
  signature_add: 'always',
  language: null,
  notify_minutes: 15,
  theme: 'system',
  trust_contacts: true,
  undo_send_seconds: 10,
};

/** POST user/settings takes any subset of the settings. */
export const settingsUpdateSchema = settingsSchema.partial().strict();
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const aliasSchema = z.object({ id: z.number().int(), email: z.string() });
export type Alias = z.infer<typeof aliasSchema>;

export const profileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  signature: z.string(),
  default: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * POST user/profiles and POST user/profiles/{id} (only the fields given change): a sender identity. `email` must be
 * an address the account may send from (its primary address, an alias, a domain address: failed_validation_email_address
 * otherwise); `signature` is HTML as the compose editor writes it (sanitised on save, at most 64 KB); `name` at most 200
 * characters (may be empty: the From then carries the address alone). `default: true` makes it the one default (the
 * previous default loses it); the default cannot be unset except by making another the default. Unknown or another
 * account's id: profile_not_found; a malformed id: request_profile_id_error.
 */
export const profileInputSchema = z.object({
  name: z.string().max(200).default(''),
  email: z.string().max(320),
  signature: z.string().max(65_536).default(''),
  default: z.boolean().default(false),
});
export type ProfileInput = z.input<typeof profileInputSchema>;
export const profileUpdateSchema = z.object({
  name: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  signature: z.string().max(65_536).optional(),
  default: z.literal(true).optional(),
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;
/** The profiles after a change, default first (DELETE of the default makes the oldest remaining one the default; the last profile cannot be deleted: invalid_request_params). */
export const profilesResponseSchema = z.object({ profiles: z.array(profileSchema) });
export type ProfilesResponse = z.infer<typeof profilesResponseSchema>;

/** Quota in KB, as the API speaks (the database keeps bytes). */
export const quotaSchema = z.object({ size: z.number().int(), limit: z.number().int() });
export type Quota = z.infer<typeof quotaSchema>;

/** GET user/account (SPEC §3 Account). */
export const accountSchema = z.object({
  email: z.string(),
  aliases: z.array(aliasSchema),
  profiles: z.array(profileSchema),
  settings: settingsSchema,
  quota: quotaSchema,
  alias_accesses: z.array(z.string()),
});
export type Account = z.infer<typeof accountSchema>;

/** GET user: a list whose first item carries user_info. */
export const userResponseSchema = z.array(z.object({ user_info: userInfoSchema }));
export type UserResponse = z.infer<typeof userResponseSchema>;

export const settingsResponseSchema = z.object({ settings: settingsSchema });
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;
