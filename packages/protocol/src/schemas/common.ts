import { z } from 'zod';

/** A 12-digit member ID of the payments ecosystem (SPEC §5). */
export const memberIdSchema = z.string().regex(/^\d{12}$/, 'invalid_member_id');

/** The largest value of a PostgreSQL `integer` (int4) column: UIDs, versions, counters. */
export const INT4_MAX = 2 ** 31 - 1;

/**
 * The JSON Schema key (from `.meta()`) that marks an integer as a row id of a `bigint` column, which may go up to
 * Number.MAX_SAFE_INTEGER; every other integer in a request must stay within int4 (routes.test.ts walks the route
 * table and holds both rules, so a new unbounded integer cannot reach the database and answer 500).
 */
export const COLUMN_KEY = 'x-column';

/** A row id in a body or query (a `bigint generated always as identity` column): 1..2^53-1. */
export const rowIdSchema = z
  .number()
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
  .meta({ [COLUMN_KEY]: 'bigint' });

/** An IMAP UID in a body (an `integer` column): 1..2^31-1. */
export const uidSchema = z.number().int().positive().max(INT4_MAX);

/** A non-negative count or version stored in an `integer` column: 0..2^31-1. */
export const int4Schema = z.number().int().nonnegative().max(INT4_MAX);

/**
 * Ids in URLs are positive integers; path params arrive as strings. Bounded so that "1e300"
 * is a 400 here rather than a value the database cannot take as bigint.
 */
export const idParamSchema = z.coerce
  .number()
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
  .meta({ [COLUMN_KEY]: 'bigint' });

/**
 * A folder id in a message path. Anything else answers request_folder_id_error (the schema's
 * message is the catalogue code), on which the client goes to the first folder (SPEC §4).
 */
export const folderIdPathSchema = z
  .string()
  .regex(/^\d{1,15}$/, 'request_folder_id_error')
  .transform(Number)
  .refine((id) => id >= 1, 'request_folder_id_error');

/** A UID in a message path: 32-bit as in IMAP; anything else names no message (message_not_found). */
export const uidPathSchema = z
  .string()
  .regex(/^\d{1,10}$/, 'message_not_found')
  .transform(Number)
  .refine((uid) => uid <= INT4_MAX, 'message_not_found');

export const okSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof okSchema>;

export const errorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    meta: z.object({ code: z.number().int(), i8s: z.string() }),
  }),
});

/** A profile id in a path (user/profiles/{id}): anything else answers request_profile_id_error. */
export const profileIdParamSchema = z
  .string()
  .regex(/^\d{1,15}$/, 'request_profile_id_error')
  .transform(Number)
  .refine((id) => id >= 1, 'request_profile_id_error');
