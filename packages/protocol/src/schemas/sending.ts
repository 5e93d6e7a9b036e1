import { z } from 'zod';
import { int4Schema, rowIdSchema, uidSchema } from './common.js';
import { ATTACHMENTS_TOTAL_LIMIT_BYTES, COMPOSE_MODE } from '../constants.js';
import { encryptionSchema } from './encrypted.js';
import { instantSchema } from './time-controls.js';
import { REMIND_AFTER_DAYS_MAX } from '../constants.js';

/** A recipient as the compose window sends it; the name is optional. */
export const outgoingAddressSchema = z.object({
  email: z.string().max(320),
  name: z.string().max(200).default(''),
});
export type OutgoingAddress = z.infer<typeof outgoingAddressSchema>;

export const outgoingFieldsSchema = z.object({
  /** One of the user's profiles or aliases (SPEC §3 Account). */
  from: outgoingAddressSchema,
  to: z.array(outgoingAddressSchema).max(500).default([]),
  cc: z.array(outgoingAddressSchema).max(500).default([]),
  bcc: z.array(outgoingAddressSchema).max(500).default([]),
  'reply-to': z.array(outgoingAddressSchema).max(20).default([]),
});
export type OutgoingFields = z.infer<typeof outgoingFieldsSchema>;

/** The message a reply or forward answers, for In-Reply-To/References and the \Answered flag. */
export const composeSourceSchema = z.object({
  folder_id: rowIdSchema,
  uid: uidSchema,
  mode: z.union([
    z.literal(COMPOSE_MODE.REPLY),
    z.literal(COMPOSE_MODE.REPLY_ALL),
    z.literal(COMPOSE_MODE.FORWARD),
  ]),
});
export type ComposeSource = z.infer<typeof composeSourceSchema>;

/**
 * POST messages/send and messages/draft (SPEC §7). `content` is the body as typed (HTML or
 * plain text, not base64); `attachments` are ids from POST attachments; `uid` is the draft in
 * the Drafts folder this message replaces (saving replaces it, sending deletes it).
 * `encrypt` (send only): the browser has encrypted subject, body and attachments into
 * `encryption`; `subject` and `content` are then empty and `attachments` too, and recipients get
 * a notice with a /decrypt link instead of the message (see schemas/encrypted.ts).
 */
export const composeRequestSchema = z.object({
  subject: z.string().max(998).default(''),
  fields: outgoingFieldsSchema,
  content: z.string().max(ATTACHMENTS_TOTAL_LIMIT_BYTES).default(''),
  content_type: z.enum(['text/plain', 'text/html']).default('text/html'),
  attachments: z.array(rowIdSchema).max(100).default([]),
  uid: uidSchema.nullable().optional(),
  source: composeSourceSchema.nullable().optional(),
  isDraft: z.boolean().default(false),
  encrypt: z.boolean().default(false),
  encryption: encryptionSchema.optional(),
  /** Send only: send at this moment (Send later) rather than after the undo_send_seconds hold. */
  send_at: instantSchema.nullable().optional(),
  /** Send only: bring the sent message back to the Inbox when no reply has come in this many days. */
  remind_after_days: z.number().int().min(1).max(REMIND_AFTER_DAYS_MAX).nullable().optional(),
});
export type ComposeRequest = z.input<typeof composeRequestSchema>;
export type ComposeRequestParsed = z.output<typeof composeRequestSchema>;

/** Where the stored copy went: Sent for messages/send, Drafts for messages/draft. */
export const storedCopySchema = z.object({ uid: z.number().int(), folder_id: z.number().int() });

export const draftResponseSchema = z.object({ message: storedCopySchema });
export type DraftResponse = z.infer<typeof draftResponseSchema>;

export const sendResponseSchema = z.object({
  message: storedCopySchema,
  /** Local recipients delivered to at once. */
  delivered: z.number().int(),
  /** Remote recipients put in the outbox. */
  queued: z.number().int(),
  /** False when no SMTP relay is configured: queued mail waits until one is. */
  relay_configured: z.boolean(),
  /**
   * The message waits in Scheduled (message names that copy) until `send_at`: held for the undo window, or sent
   * later; delivered and queued are 0 until it goes. Null: it went at once.
   */
  scheduled: z
    .object({ id: z.number().int(), purpose: z.enum(['undo', 'later']), send_at: z.string() })
    .nullable(),
});
export type SendResponse = z.infer<typeof sendResponseSchema>;

/** An uploaded compose attachment (POST attachments, one file per request). */
export const uploadedAttachmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
});
export type UploadedAttachment = z.infer<typeof uploadedAttachmentSchema>;
export const uploadResponseSchema = z.object({ attachment: uploadedAttachmentSchema });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/**
 * POST attachments/copy: turn attachments of a stored message (a forwarded message, a reopened
 * draft) into compose attachments without uploading them again.
 */
export const copyAttachmentsRequestSchema = z.object({
  folder_id: rowIdSchema,
  uid: uidSchema,
  /** Attachment ids of that message; all of them when left out. */
  ids: z.array(int4Schema).max(100).optional(),
});
export type CopyAttachmentsRequest = z.infer<typeof copyAttachmentsRequestSchema>;
export const copyAttachmentsResponseSchema = z.object({ attachments: z.array(uploadedAttachmentSchema) });
export type CopyAttachmentsResponse = z.infer<typeof copyAttachmentsResponseSchema>;
