import { z } from 'zod';
import { idParamSchema, rowIdSchema } from './common.js';

/**
 * Contacts and groups (SPEC §3 Contact: id, emails, email, name, surname, phone, date of birth; Group: id, name,
 * contacts; §7 the contacts and groups calls; §9 contact search page size 1000, the /contacts route's limit 100).
 * A contact and a group belong to one account; another account's id is not found (entity_not_found), never data.
 */

/** The /contacts route's page size (SPEC §9). */
export const CONTACTS_PAGE_SIZE = 100;
/** The page size of a contact search (SPEC §9: GET contacts?size=1000&search=). */
export const CONTACT_SEARCH_SIZE = 1000;
/** At most this many addresses on one contact. */
export const CONTACT_EMAILS_MAX = 20;

/** YYYY-MM-DD (a vCard BDAY without a year is kept in the vCard fields we do not show, not here). */
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_request_params');

export const contactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  surname: z.string(),
  /** The primary address ('' when the contact has none). */
  email: z.string(),
  /** Every address, the primary first. */
  emails: z.array(z.string()),
  phone: z.string(),
  /** Date of birth, YYYY-MM-DD, or null. */
  birthday: z.string().nullable(),
  notes: z.string(),
  /** The groups the contact is in, by id. */
  groups: z.array(z.number().int()),
});
export type Contact = z.infer<typeof contactSchema>;

/**
 * POST contacts and POST contacts/{id}. `name` is required after trimming (name_not_indicated: "You didn't specify
 * a name!"); every address must be an address (failed_validation_email_address); `email`, when given, is the
 * primary and must be one of `emails` (it is put first); without it the first of `emails` is the primary. On
 * POST contacts/{id} only the fields given change.
 */
export const contactInputSchema = z.object({
  name: z.string().max(200),
  surname: z.string().max(200).default(''),
  email: z.string().max(320).optional(),
  emails: z.array(z.string().max(320)).max(CONTACT_EMAILS_MAX).default([]),
  phone: z.string().max(100).default(''),
  birthday: isoDate.nullable().default(null),
  notes: z.string().max(10_000).default(''),
});
export type ContactInput = z.input<typeof contactInputSchema>;
export const contactUpdateSchema = z.object({
  name: z.string().max(200).optional(),
  surname: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  emails: z.array(z.string().max(320)).max(CONTACT_EMAILS_MAX).optional(),
  phone: z.string().max(100).optional(),
  birthday: isoDate.nullable().optional(),
  notes: z.string().max(10_000).optional(),
});
export type ContactUpdate = z.input<typeof contactUpdateSchema>;

/**
 * GET contacts?page=&size= (a page, by surname then name), GET contacts?size=1000&search= (search: each word found
 * anywhere inside the name, surname, any address or phone, in any case), optionally within one group.
 */
export const contactsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(CONTACT_SEARCH_SIZE).default(CONTACTS_PAGE_SIZE),
  search: z.string().max(200).optional(),
  group: idParamSchema.optional(),
});
export type ContactsQuery = z.input<typeof contactsQuerySchema>;

export const contactsResponseSchema = z.object({ contacts: z.array(contactSchema), total: z.number().int() });
export type ContactsResponse = z.infer<typeof contactsResponseSchema>;
export const contactResponseSchema = z.object({ contact: contactSchema });
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/** DELETE contacts/{id}, and the bulk delete of the screen: POST contacts/delete. */
export const contactsDeleteSchema = z.object({ ids: z.array(rowIdSchema).min(1).max(1000) });

/** A group in the list: its size instead of its members. */
export const groupSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  count: z.number().int(),
});
export type GroupSummary = z.infer<typeof groupSummarySchema>;
/** GET contacts/groups. */
export const groupsResponseSchema = z.object({ groups: z.array(groupSummarySchema) });
export type GroupsResponse = z.infer<typeof groupsResponseSchema>;

/** GET groups/{id}: the group with its members (SPEC §3 Group: id, name, contacts). */
export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contacts: z.array(contactSchema),
});
export type Group = z.infer<typeof groupSchema>;
export const groupResponseSchema = z.object({ group: groupSchema });
export type GroupResponse = z.infer<typeof groupResponseSchema>;

/** POST contacts/groups and POST contacts/groups/{id}: the name, required (name_not_indicated), unique per account. */
export const groupInputSchema = z.object({ name: z.string().max(200) });
export type GroupInput = z.input<typeof groupInputSchema>;

/**
 * POST contacts/groups/{id}/contacts: contacts added to and removed from the group (ids of the same account); at
 * least one id in all (a request that changes nothing is invalid_request_params).
 */
export const groupMembersSchema = z
  .object({
    add: z.array(rowIdSchema).max(10_000).default([]),
    remove: z.array(rowIdSchema).max(10_000).default([]),
  })
  .refine((body) => body.add.length + body.remove.length > 0, 'invalid_request_params');
export type GroupMembersRequest = z.input<typeof groupMembersSchema>;

/**
 * POST contacts/import: the file as the request body (a vCard 2.1, 3.0 or 4.0 file, or a Google or Outlook CSV
 * export; at most 5 MB), its kind told by `format` or found from its content; its charset found from the file (a
 * BOM, a CHARSET parameter, else UTF-8 when valid, else windows-1251). Contacts already present (any same address;
 * else, when the entry or the contact has no address, the same name and surname — two namesakes with addresses of
 * their own stay two) are completed, not added again, so the same file twice adds nothing.
 * `group` puts every imported contact into that group as well.
 */
export const contactImportQuerySchema = z.object({
  format: z.enum(['auto', 'vcard', 'csv']).default('auto'),
  group: idParamSchema.optional(),
});
/** An import's state: queued, running (a batch at a time), done, or failed (error says why). */
export const contactImportStates = ['queued', 'running', 'done', 'failed'] as const;
export const contactImportResponseSchema = z.object({
  id: z.number().int(),
  state: z.enum(contactImportStates),
  /** Entries in the file (0 until it has been read), and how many have been gone through. */
  total: z.number().int(),
  done: z.number().int(),
  added: z.number().int(),
  /** Contacts that were already there and gained something (an address, a phone, a group…). */
  updated: z.number().int(),
  /** Contacts that were already there as they are in the file. */
  unchanged: z.number().int(),
  groups_added: z.number().int(),
  /** Entries left out, with why (e.g. no name and no address): the first CONTACT_IMPORT_SKIPPED_LISTED of them. */
  skipped: z.array(z.object({ entry: z.number().int(), reason: z.string() })),
  /** How many entries were left out in all. */
  skipped_count: z.number().int(),
  /** New contacts not added because the address book was full (MAX_CONTACTS). */
  over_limit: z.number().int(),
  /** New groups not made because there were as many as an account may have (MAX_CONTACT_GROUPS). */
  groups_over_limit: z.number().int(),
  /** Why a failed import failed. */
  error: z.string().nullable(),
});
export type ContactImportResponse = z.infer<typeof contactImportResponseSchema>;
/** The skipped entries an import lists (it counts them all). */
export const CONTACT_IMPORT_SKIPPED_LISTED = 100;

/** GET contacts/export[?group=]: every contact, or one group's, as one vCard 4.0 file (text/vcard, a download). */
export const contactExportQuerySchema = z.object({ group: idParamSchema.optional() });

/**
 * GET contacts/suggest?q=: compose's To/Cc/Bcc autocomplete. Contacts (each address), groups (which expand to their
 * members' primary addresses) and addresses the user has written to, ranked by how well they match (an address
 * or name starting with q, then a word starting with q, then containing it) and then by how often the user sends to
 * them. Empty for a session held to one address (SPEC §6).
 */
export const suggestQuerySchema = z.object({
  q: z.string().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const suggestionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('contact'),
    contact_id: z.number().int(),
    name: z.string(),
    email: z.string(),
  }),
  /** An address the user has written to that is not a contact. */
  z.object({ kind: z.literal('recent'), name: z.string(), email: z.string() }),
  z.object({
    kind: z.literal('group'),
    group_id: z.number().int(),
    name: z.string(),
    /** The members with an address, as "Name Surname <address>" pairs. */
    members: z.array(z.object({ name: z.string(), email: z.string() })),
  }),
]);
export type Suggestion = z.infer<typeof suggestionSchema>;
export const suggestResponseSchema = z.object({ suggestions: z.array(suggestionSchema) });
export type SuggestResponse = z.infer<typeof suggestResponseSchema>;

/**
 * GET contacts/known?email=: whether an address is a contact (the reader's 'add sender to contacts' is offered
 * when it is not) and whether the user has written to it.
 */
export const knownQuerySchema = z.object({ email: z.string().min(1).max(320) });
export const knownResponseSchema = z.object({
  contact_id: z.number().int().nullable(),
  written_to: z.boolean(),
});
export type KnownResponse = z.infer<typeof knownResponseSchema>;
