import { z } from 'zod';
import { SENDER_LISTS_MAX } from '../constants.js';

export const senderListValues = ['allow', 'block'] as const;
export type SenderListName = (typeof senderListValues)[number];

/** An entry of a member's allow or block list: an address, or a domain (its subdomains too). */
export const senderEntrySchema = z.object({
  entry: z.string(),
  list: z.enum(senderListValues),
  created_at: z.string(),
});
export type SenderEntry = z.infer<typeof senderEntrySchema>;

export const sendersResponseSchema = z.object({ senders: z.array(senderEntrySchema) });
export type SendersResponse = z.infer<typeof sendersResponseSchema>;

/** Put addresses or domains on a list (an entry on the other list moves to this one). */
export const sendersAddSchema = z.object({
  list: z.enum(senderListValues),
  entries: z.array(z.string().max(320)).min(1).max(SENDER_LISTS_MAX),
});
export type SendersAdd = z.infer<typeof sendersAddSchema>;

export const sendersAddResponseSchema = sendersResponseSchema.extend({
  /** How many entries were new on the list (or moved to it). */
  added: z.number().int(),
});
export type SendersAddResponse = z.infer<typeof sendersAddResponseSchema>;

export const senderDeleteQuerySchema = z.object({ entry: z.string().min(1).max(320) });

/**
 * An allow- or block-list entry as stored: an address `name@example.com` or a domain `example.com` (a leading `@` or
 * `*.` is dropped), lowercased; null when it is neither.
 */
export function normaliseSenderEntry(input: string): string | null {
  const value = input.trim().toLowerCase().replace(/^\*\./, '').replace(/^@/, '');
  const domain =
    /^(?=.{1,253}$)([a-z0-9\p{L}]([a-z0-9\p{L}-]{0,61}[a-z0-9\p{L}])?\.)+[a-z\p{L}][a-z0-9\p{L}-]{0,61}$/u;
  const at = value.lastIndexOf('@');
  if (at < 0) return domain.test(value) ? value : null;
  const local = value.slice(0, at);
  if (!local || local.length > 64 || /[\s<>(),;:"\\]/.test(local)) return null;
  return domain.test(value.slice(at + 1)) ? value : null;
}
