import { z } from 'zod';

/** A 12-digit member ID of the payments ecosystem (SPEC §5). */
export const memberIdSchema = z.string().regex(/^\d{12}$/, 'invalid_member_id');

/**
 * Ids in URLs are positive integers; path params arrive as strings. Bounded so that "1e300"
 * is a 400 here rather than a value the database cannot take as bigint.
 */
export const idParamSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const okSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof okSchema>;

export const errorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    meta: z.object({ code: z.number().int(), i8s: z.string() }),
  }),
});
