import { z } from 'zod';
import { memberIdSchema } from './common.js';

/** The signed-in user (SPEC §3 "User"): Email, member ID, Info.alias (set for alias-only users). */
export const userInfoSchema = z.object({
  email: z.string(),
  member_id: memberIdSchema.nullable(),
  name: z.string(),
  info: z.object({
    alias: z.string().nullable(),
    /**
     * Set while this session has opened another member's mailbox (impersonation): who is really signed in. The app
     * shows whose mailbox it is and a way back (POST /auth/impersonate/end).
     */
    impersonator: z.object({ member_id: z.string(), email: z.string() }).nullable().optional(),
  }),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** GET /auth/access */
export const accessResponseSchema = userInfoSchema;
export type AccessResponse = z.infer<typeof accessResponseSchema>;

/** GET /auth/rids: the member ID the session belongs to (the provider's RID). */
export const ridsResponseSchema = z.object({ rid: memberIdSchema.nullable() });
export type RidsResponse = z.infer<typeof ridsResponseSchema>;

/** POST /auth/pw/login: password access to an address (granted by its owner). */
export const passwordLoginRequestSchema = z.object({
  email: z.string().min(3).max(320),
  password: z.string().min(1).max(200),
});
export type PasswordLoginRequest = z.infer<typeof passwordLoginRequestSchema>;

export const passwordLoginResponseSchema = z.object({ user: userInfoSchema });
export type PasswordLoginResponse = z.infer<typeof passwordLoginResponseSchema>;

/** GET /auth/wm/login?redirect=/mail/... */
export const loginQuerySchema = z.object({
  redirect: z.string().max(2000).optional(),
  prompt: z.enum(['login', 'none']).optional(),
  /** The app's language, passed on to the provider as ui_locales (ignored unless en or ru). */
  lang: z.string().max(35).optional(),
});
