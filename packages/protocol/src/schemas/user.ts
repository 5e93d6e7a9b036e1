import { z } from 'zod';
import { userInfoSchema } from './auth.js';

export const imageDisplayValues = ['always', 'never', 'correspondent'] as const;
export const signatureAddValues = ['always', 'response', 'new_message'] as const;

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
