import { z } from 'zod';
import { rowIdSchema } from './common.js';
import { folderMessagesSchema, messageQuerySchema } from './messages.js';

export const markFlagValues = ['seen', 'unseen', 'flagged', 'unflagged', 'label', 'unlabel'] as const;
export type MarkFlag = (typeof markFlagValues)[number];

const folderMessagesList = z.array(folderMessagesSchema).min(1).max(100);

/** POST messages/mark: label and unlabel need label_id. */
export const markRequestSchema = z.object({
  flag: z.enum(markFlagValues),
  folder_messages: folderMessagesList,
  label_id: rowIdSchema.optional(),
});
export type MarkRequest = z.infer<typeof markRequestSchema>;

/** POST messages/move: the messages get new UIDs in the destination (IMAP MOVE semantics). */
export const moveRequestSchema = z.object({
  destination_id: rowIdSchema,
  folder_messages: folderMessagesList,
});
export type MoveRequest = z.infer<typeof moveRequestSchema>;

/** POST messages/delete: to Trash; from Trash or Junk for good. */
export const deleteRequestSchema = z.object({ folder_messages: folderMessagesList });
export type DeleteRequest = z.infer<typeof deleteRequestSchema>;

/** POST messages/empty: Trash and Junk only. */
export const emptyRequestSchema = z.object({ folder_id: rowIdSchema });
export type EmptyRequest = z.infer<typeof emptyRequestSchema>;

/** Where a moved message went: its old and its new address. */
export const movedMessageSchema = z.object({
  folder_id: z.number().int(),
  uid: z.number().int(),
  destination_id: z.number().int(),
  destination_uid: z.number().int(),
});
export type MovedMessage = z.infer<typeof movedMessageSchema>;

const folderUids = z.object({ folder_id: z.number().int(), message_uids: z.array(z.number().int()) });

/** What an action changed; messages not found (gone, or not the caller's) are simply not listed. */
export const actionResultSchema = z.object({
  ok: z.literal(true),
  /** mark: messages whose flag or label actually changed. */
  marked: z.array(folderUids).optional(),
  /** move, and delete to Trash. */
  moved: z.array(movedMessageSchema).optional(),
  /** delete from Trash or Junk, empty: removed for good. */
  deleted: z.array(folderUids).optional(),
  /** bulk get: every matching message, grouped by folder. */
  folder_messages: z.array(folderUids).optional(),
});
export type ActionResult = z.infer<typeof actionResultSchema>;

/** request_params of the bulk form: destination_id for move, flag (and label_id) for mark. */
export const bulkParamsSchema = z.object({
  destination_id: rowIdSchema.optional(),
  flag: z.enum(markFlagValues).optional(),
  label_id: rowIdSchema.optional(),
});

/**
 * POST messages/bulk: acts on EVERY message matching `request` (the active folder, label or
 * search), across all pages; page and limit of the request are ignored.
 */
export const bulkRequestSchema = z.object({
  request_type: z.enum(['move', 'mark', 'get']),
  request_params: bulkParamsSchema.default({}),
  request: messageQuerySchema,
});
export type BulkRequest = z.input<typeof bulkRequestSchema>;

/** POST messages/search/delete, search/move, search/mark: the search's every match. */
export const searchActionSchema = bulkParamsSchema.extend({ request: messageQuerySchema });
export type SearchActionRequest = z.input<typeof searchActionSchema>;
