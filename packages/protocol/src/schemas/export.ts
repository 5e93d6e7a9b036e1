import { z } from 'zod';
import { listQuerySchema, messageQuerySchema } from './messages.js';

/**
 * What an export writes: `mbox`, one mboxrd file (each message after a `From ` line, its lines beginning with
 * `>*From ` quoted with one more `>`), or `zip`, one `.eml` file per message under its folder's path.
 */
export const EXPORT_FORMATS = ['mbox', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const formatSchema = z.enum(EXPORT_FORMATS).default('mbox');

export const exportQuerySchema = z.object({ format: formatSchema });

/** A folder's export: `a_id` narrows it to mail to one address, as the folder's list does. */
export const folderExportQuerySchema = z.object({
  format: formatSchema,
  a_id: listQuerySchema.shape.a_id,
});

/** A search's export: the search request (POST messages/search's body) as JSON in `q`; its page and limit are ignored. */
export const searchExportQuerySchema = z.object({
  format: formatSchema,
  q: z
    .string()
    .max(4000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.issues.push({ code: 'custom', message: 'invalid_request_params', input: text });
        return z.NEVER;
      }
    })
    .pipe(messageQuerySchema.strict()),
});
export type SearchExportQuery = z.input<typeof searchExportQuerySchema>;
