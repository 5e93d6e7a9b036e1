import { z } from 'zod';
import { COLUMN_KEY, rowIdSchema, uidSchema } from './common.js';
import { LABEL_SEARCH_FIELDS, SEARCH_PAGE_SIZE } from '../constants.js';

export const mailAddressSchema = z.object({ email: z.string(), name: z.string() });
export type MailAddress = z.infer<typeof mailAddressSchema>;

/** Header addresses of a message (SPEC §3 Mail.fields). */
export const mailFieldsSchema = z.object({
  from: z.array(mailAddressSchema),
  to: z.array(mailAddressSchema),
  cc: z.array(mailAddressSchema),
  bcc: z.array(mailAddressSchema),
  'reply-to': z.array(mailAddressSchema),
});
export type MailFields = z.infer<typeof mailFieldsSchema>;

export const mailFlagsSchema = z.object({ seen: z.boolean(), flagged: z.boolean(), draft: z.boolean() });
export type MailFlags = z.infer<typeof mailFlagsSchema>;

export const attachmentSchema = z.object({ id: z.number().int(), name: z.string(), size: z.number().int() });
export type Attachment = z.infer<typeof attachmentSchema>;

/** A member of a chain (SPEC §3 Mail.threads). */
export const threadMemberSchema = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  folder_id: z.number().int(),
  subject: z.string(),
  from: z.array(mailAddressSchema),
  created_at: z.string(),
  flags: mailFlagsSchema,
  labels: z.array(z.number().int()),
});
export type ThreadMember = z.infer<typeof threadMemberSchema>;

/** A row of a message list. */
export const mailListItemSchema = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  folder_id: z.number().int(),
  subject: z.string(),
  flags: mailFlagsSchema,
  labels: z.array(z.number().int()),
  fields: mailFieldsSchema,
  preview: z.string(),
  has_attachments: z.boolean(),
  encrypted: z.boolean(),
  size: z.number().int(),
  created_at: z.string(),
  thread_id: z.number().int(),
  /** The message came back to this folder: its snooze ended, or no reply came to it in time (issue 31). */
  returned: z
    .object({ for: z.enum(['snooze', 'follow_up']), at: z.string() })
    .nullable()
    .optional(),
  /** In Snoozed: when it comes back. */
  snoozed_until: z.string().optional(),
  /** Other messages of the chain, newest first; present when the message_thread setting is on. */
  threads: z.array(threadMemberSchema).optional(),
});
export type MailListItem = z.infer<typeof mailListItemSchema>;

/** The message list answer: `total` counts the rows the list pages through (chains when threaded), `all` every message in the view. */
export const mailListResponseSchema = z.object({
  messages: z.array(mailListItemSchema),
  total: z
    .number()
    .int()
    .describe('Rows this list pages through: messages, or chains when the message_thread setting is on'),
  all: z
    .number()
    .int()
    .describe(
      'Every message in the view (the folder, label or search, narrowed by the alias when a_id is given)',
    ),
});
export type MailListResponse = z.infer<typeof mailListResponseSchema>;

const authResultValues = [
  'pass',
  'fail',
  'softfail',
  'neutral',
  'none',
  'temperror',
  'permerror',
  'policy',
] as const;

/** Who sent an opened message, as far as we know (issue 30): the reader's verified badge or warning. */
export const senderTrustSchema = z.object({
  /**
   * verified: the From domain proved itself (DMARC, or a trusted ARC seal); unverified: it failed or had no
   * authentication; unknown: never checked (collected, imported, older mail, mail from this service itself).
   */
  status: z.enum(['verified', 'unverified', 'unknown']),
  /** The From domain the results speak of. */
  domain: z.string(),
  /** The sender imitates a protected domain (PROTECTED_DOMAINS): which, and how. */
  impostor: z
    .object({ imitates: z.string(), reason: z.enum(['own_domain', 'lookalike_domain', 'display_name']) })
    .nullable(),
  /** Where a reply really goes, when it is not the From address. */
  reply_to: z.string().nullable(),
  /** Rspamd's score (null: not scored). */
  spam: z
    .object({
      score: z.number(),
      required: z.number(),
      action: z.string(),
      symbols: z.array(z.object({ name: z.string(), score: z.number() })),
    })
    .nullable(),
  /** The spam check was not available when the message arrived. */
  spam_unchecked: z.boolean(),
  /** Why the message was filed into Junk on arrival. */
  junk_reason: z.enum(['dmarc', 'spam', 'block']).nullable(),
  /** The member's list that decided (allow, block, or a trusted contact). */
  list: z.enum(['allow', 'block', 'contact']).nullable(),
  /** The checks' results in short (null: not checked). */
  results: z
    .object({
      spf: z.enum(authResultValues),
      dkim: z.enum(authResultValues),
      dmarc: z.enum(authResultValues),
      arc: z.enum(authResultValues),
    })
    .nullable(),
});
export type SenderTrust = z.infer<typeof senderTrustSchema>;

/** An opened message (SPEC §3 Mail). */
export const mailSchema = mailListItemSchema.extend({
  content: z.string().describe('base64 of the body in content_type'),
  content_type: z.enum(['text/plain', 'text/html']),
  attachments: z.array(attachmentSchema),
  /** True when remote images or styles were blocked (show_images=true shows them). */
  images_blocked: z.boolean(),
  message_id: z.string().nullable(),
  /** Who sent it, as far as the checks on arrival say. */
  trust: senderTrustSchema,
});
export type Mail = z.infer<typeof mailSchema>;

/** A folder's messages: `a_id` = an alias id or 'all'; page from 1; limit defaults to the per_page setting. */
export const listQuerySchema = z.object({
  a_id: z
    .union([
      z.literal('all'),
      z.coerce
        .number()
        .int()
        .nonnegative()
        .max(Number.MAX_SAFE_INTEGER)
        .meta({ [COLUMN_KEY]: 'bigint' }),
    ])
    .default('all'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  // A limit that is no page size (negative, zero, too big, not a number) falls back to the per_page setting:
  // an old link or a hand-edited address then still shows a list, not an error or nothing.
  limit: z.coerce.number().int().min(1).max(200).optional().catch(undefined),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

const dayString = z.iso.datetime({ offset: true }).or(z.iso.date());

/**
 * The search request object of SPEC §3; also the `request` of bulk actions (the active folder,
 * label or search). Dates are start/end of day in UTC as the client converts them.
 */
export const messageQuerySchema = z.object({
  page: z.number().int().min(1).max(1_000_000).default(1),
  limit: z.number().int().min(1).max(200).default(SEARCH_PAGE_SIZE),
  folder_id: rowIdSchema.nullable().optional(),
  label_id: rowIdSchema.nullable().optional(),
  alias_id: z
    .number()
    .int()
    .nonnegative()
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ [COLUMN_KEY]: 'bigint' })
    .nullable()
    .optional()
    .describe('0 = the main address'),
  from: z.string().max(500).optional(),
  subject: z.string().max(500).optional(),
  text: z.string().max(500).optional(),
  fields: z
    .array(z.enum(LABEL_SEARCH_FIELDS))
    .min(1)
    .max(LABEL_SEARCH_FIELDS.length)
    .optional()
    .describe(
      'The fields text is looked for in (each word in any of them); subject, from and body when absent',
    ),
  date: z.object({ since: dayString.optional(), before: dayString.optional() }).optional(),
  flags: z.array(z.enum(['seen', 'unseen', 'flagged', 'unflagged'])).optional(),
});
export type MessageQuery = z.infer<typeof messageQuerySchema>;

/** Messages named by folder and UIDs (SPEC §7 folder_messages). */
export const folderMessagesSchema = z.object({
  folder_id: rowIdSchema,
  message_uids: z.array(uidSchema).min(1).max(10_000),
});
export type FolderMessages = z.infer<typeof folderMessagesSchema>;

/** The trust of a message that was never checked (collected, imported, older mail). */
export const uncheckedTrust: SenderTrust = {
  status: 'unknown',
  domain: '',
  impostor: null,
  reply_to: null,
  spam: null,
  spam_unchecked: false,
  junk_reason: null,
  list: null,
  results: null,
};
