import { z } from 'zod';
import { int4Schema, rowIdSchema, uidSchema } from './common.js';

/**
 * Filters (SPEC §3 Filter: name, sieve rules; §7 GET and POST filters, response sieve_filter.filters).
 *
 * An account's filters are the rule blocks of one active Sieve script kept in the Roundcube form: `# rule:[name]`
 * before each block, the `require` lines at the top computed from what the blocks use. A filter is one block: its
 * name, its Sieve text (without `require`) and whether it is on. A filter's id is its 1-based place in the script.
 */
export const filterSchema = z.object({
  /** The filter's place in the script, from 1 (the settings/filters/edit/{id} route). */
  id: z.number().int().positive(),
  name: z.string(),
  /** The block's Sieve text, without `require` (added for the whole script on save). */
  rules: z.string(),
  enabled: z.boolean(),
});
export type Filter = z.infer<typeof filterSchema>;

/** A runtime error of the script at delivery: the message was kept in the Inbox, and the user sees why. */
export const filterDeliveryErrorSchema = z.object({
  /** ISO 8601. */
  at: z.string(),
  /** The filter whose block the error is in, when known. */
  filter: z.string().nullable(),
  message: z.string(),
});
export type FilterDeliveryError = z.infer<typeof filterDeliveryErrorSchema>;

export const filtersResponseSchema = z.object({
  sieve_filter: z.object({
    filters: z.array(filterSchema),
    /** The whole active script as stored, for the raw editor. */
    script: z.string(),
    /** Bumped by every save; a save may name the version it was made from (filters_changed otherwise). */
    version: z.number().int().nonnegative(),
    /** The latest runtime errors at delivery, newest first (at most 20). */
    errors: z.array(filterDeliveryErrorSchema),
  }),
});
export type FiltersResponse = z.infer<typeof filtersResponseSchema>;

const filterInputSchema = z.object({
  /** Required: filter_name_is_empty when empty after trimming. */
  name: z.string().max(200),
  rules: z.string(),
  enabled: z.boolean().default(true),
});
export type FilterInput = z.input<typeof filterInputSchema>;

/**
 * POST filters: the whole list in its new order (create, edit, reorder, enable, delete are all a new list), or the
 * whole script from the raw editor. Refused with sieve_syntax_error (the first error's line and column in the
 * message) when a block does not compile, sieve_regex_too_long when a `:regex` pattern is longer than the
 * interpreter's limit (1024 characters), filter_name_is_empty when a name is empty.
 */
export const filtersSaveSchema = z
  .object({
    version: int4Schema.optional(),
    filters: z.array(filterInputSchema).max(500).optional(),
    script: z.string().optional(),
  })
  .refine((body) => (body.filters === undefined) !== (body.script === undefined), 'invalid_request_params');
export type FiltersSaveRequest = z.input<typeof filtersSaveSchema>;

/** One problem in a script, where it is (1-based). */
export const sieveProblemSchema = z.object({
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  message: z.string(),
});
export type SieveProblem = z.infer<typeof sieveProblemSchema>;

/** POST filters/validate: a whole script, or one filter's rules (checked as if the script required what they use). */
export const filterValidateSchema = z.object({ script: z.string() });
export const filterValidateResponseSchema = z.object({ errors: z.array(sieveProblemSchema) });
export type FilterValidateResponse = z.infer<typeof filterValidateResponseSchema>;

/** What a run of a filter does to one message, as the interpreter decided it (nothing is done by a test). */
export const filterActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('keep'), flags: z.array(z.string()) }),
  z.object({
    type: z.literal('fileinto'),
    mailbox: z.string(),
    create: z.boolean(),
    copy: z.boolean(),
    flags: z.array(z.string()),
  }),
  z.object({ type: z.literal('discard') }),
  z.object({ type: z.literal('redirect'), address: z.string(), copy: z.boolean() }),
  z.object({ type: z.enum(['reject', 'ereject']), reason: z.string() }),
  z.object({
    type: z.literal('vacation'),
    subject: z.string(),
    seconds: z.number().int(),
    reason: z.string(),
  }),
]);
export type FilterAction = z.infer<typeof filterActionSchema>;

/** POST filters/test: run rules (one filter's or a whole script) against a stored message, changing nothing. */
export const filterTestSchema = z.object({
  script: z.string(),
  folder_id: rowIdSchema,
  uid: uidSchema,
});
export const filterTestResponseSchema = z.object({
  status: z.enum(['success', 'failed', 'compile-error']),
  actions: z.array(filterActionSchema),
  /** The implicit keep when it stands, with its flags; null when an action cancelled it. */
  implicit_keep: z.object({ flags: z.array(z.string()) }).nullable(),
  error: sieveProblemSchema.nullable(),
});
export type FilterTestResponse = z.infer<typeof filterTestResponseSchema>;

/** What a run over a folder did (or, dry, would do), in messages. */
export const filterRunCountsSchema = z.object({
  /** Messages for which the script did anything other than keep them as they are. */
  matched: z.number().int().nonnegative(),
  moved: z.number().int().nonnegative(),
  flagged: z.number().int().nonnegative(),
  labelled: z.number().int().nonnegative(),
  /** Moved to Trash (a discard applied to a stored message). */
  deleted: z.number().int().nonnegative(),
  /** Left as they are: the message could not be read, or the script failed on it (a runtime error). */
  skipped: z.number().int().nonnegative(),
});
export type FilterRunCounts = z.infer<typeof filterRunCountsSchema>;

/** A run of a filter over a folder's existing mail: a durable background job, its progress also on the websocket. */
export const filterRunSchema = z.object({
  id: z.number().int().positive(),
  folder_id: z.number().int().positive(),
  dry_run: z.boolean(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  /** Messages in the folder when the run started, and how many it has looked at. */
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  counts: filterRunCountsSchema,
  error: z.string().nullable(),
});
export type FilterRun = z.infer<typeof filterRunSchema>;

/** POST filters/apply: first with dry_run true (the counts of what would happen), then for real. */
export const filterApplySchema = z.object({
  script: z.string(),
  folder_id: rowIdSchema,
  dry_run: z.boolean(),
});
export const filterRunResponseSchema = z.object({ run: filterRunSchema });
export type FilterRunResponse = z.infer<typeof filterRunResponseSchema>;
