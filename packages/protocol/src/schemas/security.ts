import { z } from 'zod';
import { memberIdSchema } from './common.js';
import { PASSWORD_MAX_LENGTH, passwordSchema } from './aliases.js';

/**
 * The account's security (SPEC §2 settings/access, ba, support; §6 impersonation and BA-impersonation; §7
 * user/settings/security/…). Every route here is the mailbox owner's own: a session held to one address (an alias-only
 * user) or one opened by impersonation gets forbidden — a delegate never grants further access, sets passwords or reads
 * the owner's sign-in log.
 */

/** A member ID the owner has granted access to, and when. */
export const accessGrantSchema = z.object({ member_id: memberIdSchema, granted_at: z.string() });
export type AccessGrant = z.infer<typeof accessGrantSchema>;

/** The level of identity check the provider reports for the member (OIDC claim OIDC_PASSPORT_LEVEL_CLAIM). */
export const passportLevelValues = ['none', 'formal', 'verified', 'full'] as const;
export type PassportLevel = (typeof passportLevelValues)[number];

/** GET user/settings/security; every change below answers it again. */
export const securityResponseSchema = z.object({
  /** Whether the primary address has a mailbox password (for /auth/pw/login and mail clients). */
  has_password: z.boolean(),
  /** The address the mailbox password signs in as (the primary address). */
  password_email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  passport_level: z.enum(passportLevelValues),
  /**
   * Set while no code for the mailbox password may be asked for: the day's PASSWORD_CODES_PER_DAY were given
   * (password/sendcode answers password_codes_locked until then).
   */
  password_codes_locked_until: z.string().nullable(),
  /** Members who may open this whole mailbox (impersonation). */
  impersonation: z.array(accessGrantSchema),
  /** Members who may act for this member's bank accounts (BA-impersonation). */
  ba_impersonation: z.array(accessGrantSchema),
});
export type SecurityResponse = z.infer<typeof securityResponseSchema>;

/**
 * POST user/settings/security/password/sendcode: a 6-digit code goes to the member's wallet application (the sandbox
 * wallet shows it on its page). Valid CODE_TTL_SECONDS, single use, 5 wrong tries end it; a new code at most once a
 * minute (too_many_requests), and at most PASSWORD_CODES_PER_DAY (a setting, default 10) in 24 hours: then
 * password_codes_locked until `password_codes_locked_until` of the security response.
 */
export const CODE_TTL_SECONDS = 600;
export const sendCodeRequestSchema = z.object({ purpose: z.enum(['new', 'change']) });
export type SendCodeRequest = z.infer<typeof sendCodeRequestSchema>;
export const sendCodeResponseSchema = z.object({ expires_in: z.number().int() });
export type SendCodeResponse = z.infer<typeof sendCodeResponseSchema>;

/**
 * POST user/settings/security/password/new (no password yet) and password/change (replacing one): the code of
 * sendcode (request_code_not_found when wrong, used or expired), the password twice (passwords_do_not_match). new when
 * a password exists, or change when none: invalid_request_params. A change ends every other password session of the
 * address.
 */
export const passwordSetRequestSchema = z.object({
  code: z.string().regex(/^\d{6}$/, 'request_code_not_found'),
  password: passwordSchema,
  password_confirm: z.string().max(PASSWORD_MAX_LENGTH),
});
export type PasswordSetRequest = z.infer<typeof passwordSetRequestSchema>;

/** POST user/settings/security/userinfo: the member's first and last name (the account's display name). */
export const userInfoUpdateSchema = z.object({
  first_name: z.string().trim().max(100),
  last_name: z.string().trim().max(100),
});
export type UserInfoUpdate = z.infer<typeof userInfoUpdateSchema>;

/**
 * POST user/settings/security/impersonation?member_id= grants, DELETE …?member_id= revokes (open sessions of that
 * member in this mailbox end at once). The same for ba-impersonation. One's own member ID: invalid_member_id2. A
 * member ID with no account yet is answered like any other (a grant never tells whether a member ID exists): the
 * grant is kept, listed, and takes effect when that member signs in. At most 30 grants (and 30 revocations) of a
 * kind an hour per account (429 too_many_requests).
 */
export const memberIdQuerySchema = z.object({ member_id: memberIdSchema });
export type MemberIdQuery = z.infer<typeof memberIdQuerySchema>;

/** How a sign-in happened. */
export const authMethodValues = ['sso', 'password', 'impersonation'] as const;
export type AuthMethod = (typeof authMethodValues)[number];

/** GET user/settings/security/auth-log?page=&limit=: newest first, kept AUTH_LOG_DAYS. */
export const AUTH_LOG_DAYS = 90;
export const authLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type AuthLogQuery = z.input<typeof authLogQuerySchema>;
export const authLogEntrySchema = z.object({
  at: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  method: z.enum(authMethodValues),
  success: z.boolean(),
  /** The address signed in as (a password sign-in: the alias or the primary address). */
  address: z.string().nullable(),
  /** For impersonation: the member who opened the mailbox (in the owner's log) or whose mailbox was opened (in the actor's). */
  member_id: memberIdSchema.nullable(),
});
export type AuthLogEntry = z.infer<typeof authLogEntrySchema>;
export const authLogResponseSchema = z.object({
  entries: z.array(authLogEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AuthLogResponse = z.infer<typeof authLogResponseSchema>;

/** A bank account of a member as the wallet reports it (the number masked to its last 4 digits). */
export const bankAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  number: z.string(),
  currency: z.string(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;
/** GET user/settings/security/ba-list: the member's own bank accounts, and those of members who granted BA-impersonation. */
export const baListResponseSchema = z.object({
  bank_accounts: z.array(bankAccountSchema),
  acting_for: z.array(
    z.object({ member_id: memberIdSchema, name: z.string(), bank_accounts: z.array(bankAccountSchema) }),
  ),
});
export type BaListResponse = z.infer<typeof baListResponseSchema>;

/** GET user/shared-mailboxes: the mailboxes whose owners granted this member impersonation (the account menu). */
export const sharedMailboxSchema = z.object({
  member_id: memberIdSchema,
  email: z.string(),
  name: z.string(),
});
export type SharedMailbox = z.infer<typeof sharedMailboxSchema>;
export const sharedMailboxesResponseSchema = z.object({ mailboxes: z.array(sharedMailboxSchema) });
export type SharedMailboxesResponse = z.infer<typeof sharedMailboxesResponseSchema>;

/**
 * POST /auth/impersonate {member_id}: the session now opens that member's mailbox (forbidden unless granted); both
 * auth logs record it. POST /auth/impersonate/end: back to one's own mailbox. Both answer the user as /auth/access does.
 */
export const impersonateRequestSchema = z.object({ member_id: memberIdSchema });
export type ImpersonateRequest = z.infer<typeof impersonateRequestSchema>;

/** Support requests (settings/support). */
export const supportRequestSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  text: z.string(),
  created_at: z.string(),
  /** Whether the account's diagnostics went with it. */
  diagnostics: z.boolean(),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;
/**
 * Where requests go: 'mail' — as mail to the support address (SUPPORT_EMAIL); 'kept' — no mailbox can receive that
 * address (the default support@MAIL_DOMAIN with no account or alias holding it), so no mail is sent (it would only
 * bounce) and the requests are kept for the operator, who reads them with `mailroom support list`.
 */
export const supportDeliverySchema = z.enum(['mail', 'kept']);
export type SupportDelivery = z.infer<typeof supportDeliverySchema>;
export const supportRequestsResponseSchema = z.object({
  requests: z.array(supportRequestSchema),
  delivery: supportDeliverySchema,
});
export type SupportRequestsResponse = z.infer<typeof supportRequestsResponseSchema>;
/**
 * POST user/support: sent to the configured support address (SUPPORT_EMAIL) through the normal sending path, From the
 * primary address; subject and text required (support_message_empty). With include_diagnostics the diagnostics of
 * GET user/support/diagnostics go with it, exactly as shown; at most 10 requests an hour (too_many_requests).
 */
export const supportCreateSchema = z.object({
  subject: z.string().trim().max(200),
  text: z.string().trim().max(20_000),
  include_diagnostics: z.boolean().default(false),
  /** The browser's own part of the diagnostics (user agent, screen, language), shown to the user before sending. */
  client: z.record(z.string().max(100), z.string().max(500)).default({}),
});
export type SupportCreate = z.input<typeof supportCreateSchema>;
export const supportResponseSchema = z.object({
  request: supportRequestSchema,
  delivery: supportDeliverySchema,
});
export type SupportResponse = z.infer<typeof supportResponseSchema>;
/** GET user/support/diagnostics: what the server would add, as label → value lines. */
export const supportDiagnosticsResponseSchema = z.object({ diagnostics: z.record(z.string(), z.string()) });
export type SupportDiagnosticsResponse = z.infer<typeof supportDiagnosticsResponseSchema>;
