import { z } from 'zod';
import { idParamSchema } from './common.js';
import { folderMessagesSchema } from './messages.js';

/** A moment as ISO 8601 with its offset (`2026-12-01T09:00:00+03:00` or `…Z`): the server keeps it in UTC. */
export const instantSchema = z.iso.datetime({ offset: true });

/** A message waiting in Scheduled: held for the undo window ('undo') or scheduled for later ('later'). */
export const scheduledSendSchema = z.object({
  id: z.number().int(),
  /** Its copy in Scheduled. */
  folder_id: z.number().int(),
  uid: z.number().int(),
  purpose: z.enum(['undo', 'later']),
  send_at: z.string(),
});
export type ScheduledSend = z.infer<typeof scheduledSendSchema>;

/** GET scheduled-sends: what waits to be sent, soonest first. */
export const scheduledSendsResponseSchema = z.object({ scheduled: z.array(scheduledSendSchema) });
export type ScheduledSendsResponse = z.infer<typeof scheduledSendsResponseSchema>;

/**
 * POST scheduled-sends/{id}/cancel (Undo, Cancel, Edit): the message is not sent; its copy goes back to Drafts and
 * `draft` names it (null for a password-encrypted message, whose copy is only the notice: it is removed).
 */
export const cancelScheduledResponseSchema = z.object({
  draft: z.object({ folder_id: z.number().int(), uid: z.number().int() }).nullable(),
});
export type CancelScheduledResponse = z.infer<typeof cancelScheduledResponseSchema>;

/** POST messages/snooze: the messages (with their whole conversations) go to Snoozed until `until`. */
export const snoozeRequestSchema = z.object({
  folder_messages: z.array(folderMessagesSchema).min(1).max(100),
  until: instantSchema,
});
export type SnoozeRequest = z.infer<typeof snoozeRequestSchema>;

/** POST messages/unsnooze: snoozed messages go back now to where they were snoozed from. */
export const unsnoozeRequestSchema = z.object({
  folder_messages: z.array(folderMessagesSchema).min(1).max(100),
});
export type UnsnoozeRequest = z.infer<typeof unsnoozeRequestSchema>;

export const scheduledIdParamsSchema = z.object({ id: idParamSchema });
