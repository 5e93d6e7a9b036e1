import { z } from 'zod';
import { COLUMN_KEY, idParamSchema } from './common.js';

/**
 * Mail imports (issue 33): an mbox (mboxo, mboxrd, mboxcl2; a Google Takeout), a single .eml, or a .zip or .tar.gz
 * of .eml files in folders, already on the server, imported into the account as a job with durable progress.
 */

/** A message larger than this is skipped with the reason `too_large` (never held whole beyond it). */
export const IMPORT_MESSAGE_MAX_BYTES = 50 * 2 ** 20;
/** An archive whose entries together unpack to more than this is refused before unpacking (`archive_too_large`). */
export const IMPORT_ARCHIVE_MAX_BYTES = 64 * 2 ** 30;
/** An archive entry that unpacks to more than this many times its packed size is a bomb: skipped (`archive_bomb`). */
export const IMPORT_ARCHIVE_RATIO_MAX = 100;
/** The report lists this many skipped or remarked messages (it counts them all). */
export const IMPORT_REPORT_LISTED = 200;

export const mailImportFormats = ['mbox', 'eml', 'zip', 'tar.gz'] as const;
export type MailImportFormat = (typeof mailImportFormats)[number];

/** An import's state: queued, running (a batch at a time), done, or failed (error says why; what was stored stays). */
export const mailImportStates = ['queued', 'running', 'done', 'failed'] as const;

/**
 * Why a message of the file was skipped, or stored with a remark: too_large (over IMPORT_MESSAGE_MAX_BYTES),
 * no_headers (not a message), truncated (the file ends inside it), deleted (marked expunged in the source),
 * path_refused (an archive name leaving its folder), archive_bomb, not_a_message (an archive entry that is no .eml),
 * folder_refused (its folder could not be made: stored in the Inbox), unreadable.
 */
export const mailImportReasons = [
  'too_large',
  'no_headers',
  'truncated',
  'deleted',
  'path_refused',
  'archive_bomb',
  'not_a_message',
  'folder_refused',
  'unreadable',
] as const;
export type MailImportReason = (typeof mailImportReasons)[number];

export const mailImportReportEntrySchema = z.object({
  /** Its place in the file, from 1. */
  item: z.number().int(),
  /** The archive entry's name, or the byte offset of an mbox message (`@1234`). */
  where: z.string(),
  reason: z.enum(mailImportReasons),
  /** Stored all the same (with the remark), or left out. */
  stored: z.boolean(),
});
export type MailImportReportEntry = z.infer<typeof mailImportReportEntrySchema>;

export const mailImportSchema = z.object({
  id: z.number().int(),
  state: z.enum(mailImportStates),
  format: z.enum(mailImportFormats).nullable(),
  file_name: z.string(),
  /** Messages in the file (an estimate until it has been read through), and how many were gone through. */
  total: z.number().int(),
  done: z.number().int(),
  stored: z.number().int(),
  /** Messages the account had already (imported before, or brought by SMTP or a collector): not stored again. */
  already_here: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** The first IMPORT_REPORT_LISTED messages skipped or remarked, with why. */
  report: z.array(mailImportReportEntrySchema),
  /** Why a failed import stopped (a catalogue code: quota_exceeded, import_file_unreadable, …). */
  error: z.string().nullable(),
  filters: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MailImport = z.infer<typeof mailImportSchema>;

/**
 * An import file's chunked upload (issue 33): files of several GB come in parts of IMPORT_UPLOAD_PART_BYTES, each
 * its own request (PUT imports/uploads/{id}/parts/{n}, the bytes as the body), so a dropped connection costs one
 * part: the client asks how far the upload got (GET imports/uploads/{id}: `received`) and goes on from there. Parts
 * are stored in the blob store as they come, so any server process may take the next one and a restart loses none.
 */
export const IMPORT_UPLOAD_PART_BYTES = 8 * 2 ** 20;
/** An import file may be at most this large (and no larger than the mailbox's quota). */
export const IMPORT_UPLOAD_MAX_BYTES = 50 * 2 ** 30;
/** Unfinished uploads an account may have at once (each is removed a day after its last part, or once imported). */
export const IMPORT_UPLOADS_MAX = 2;

export const importUploadCreateSchema = z.object({
  file_name: z.string().trim().min(1).max(255),
  /** In bytes: over IMPORT_UPLOAD_MAX_BYTES is import_file_too_large (the service's check; the schema's bound keeps it a bigint). */
  size: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ [COLUMN_KEY]: 'bigint' }),
});
export type ImportUploadCreate = z.input<typeof importUploadCreateSchema>;

export const importUploadSchema = z.object({
  id: z.number().int(),
  file_name: z.string(),
  size: z.number().int(),
  /** Bytes received: the parts before `received / part_bytes` are stored; the upload is complete at `size`. */
  received: z.number().int(),
  part_bytes: z.number().int(),
  created_at: z.string(),
});
export type ImportUpload = z.infer<typeof importUploadSchema>;
export const importUploadResponseSchema = z.object({ upload: importUploadSchema });
export const importUploadPartParamsSchema = z.object({
  id: idParamSchema,
  part: z.coerce
    .number()
    .int()
    .min(0)
    .max(IMPORT_UPLOAD_MAX_BYTES / IMPORT_UPLOAD_PART_BYTES),
});

/**
 * POST imports: a file uploaded before imported into the account — a complete chunked upload (`import_upload_id`)
 * or a compose upload of up to 50 MB (`upload_id`). `filters`: the account's Sieve filters run on each message (off
 * by default; spam scoring never runs on imported mail).
 */
export const mailImportStartSchema = z
  .object({
    upload_id: idParamSchema.optional(),
    import_upload_id: idParamSchema.optional(),
    filters: z.boolean().default(false),
  })
  .refine((body) => (body.upload_id === undefined) !== (body.import_upload_id === undefined), {
    message: 'exactly one of upload_id and import_upload_id',
  });
export type MailImportStart = z.input<typeof mailImportStartSchema>;

export const mailImportResponseSchema = z.object({ import: mailImportSchema });
export const mailImportsResponseSchema = z.object({ imports: z.array(mailImportSchema) });
export type MailImportsResponse = z.infer<typeof mailImportsResponseSchema>;
