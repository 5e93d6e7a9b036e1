import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Label, MessageQuery } from '@mailroom/protocol';
import { prefixQuery, scopeCondition, type Scope, type SearchField } from '../mailbox/index.js';
import { earliestArrivalFor, messageDateSql } from './message-date.js';

/**
 * A message query (SPEC §3 search request, also the active folder or label of a bulk action)
 * turned into one SQL condition on `messages`, always scoped to the account. Ids in it (folder,
 * label) must already be checked to be the caller's: see search.service.ts.
 */
export interface MessageFilter {
  accountId: number;
  folderId?: number | null;
  label?: Label | null;
  /** Mail to one address only (a session held to it, or alias_id of the query); all when absent. */
  scope?: Scope;
  from?: string;
  subject?: string;
  text?: string;
  /** Where `text` is looked for, any of them matching; subject, sender and body when absent. */
  fields?: readonly SearchField[];
  since?: Date;
  before?: Date;
  flags?: MessageQuery['flags'];
}

/**
 * How a condition will be read. `page`: a few messages, the newest of a list or the rows of a
 * page (saved-search labels); each message's vector may be tested on its own (`exists`), so the
 * planner can walk the date index and stop at the page's end, or probe just the page's ids. With
 * `in (…)`, a condition `or`-ed with the sender's address (`from`) always collected every match
 * of the index first: a label's saved search on 30 rows took 46 ms instead of 0.2 (PostgreSQL,
 * 25,000 matches). `all`: every match (the total, bulk actions); the search index's matches are
 * gathered first and looked up by primary key, which the planner will not choose for `in (…)` on
 * its own: it joined every message of the account instead (count of 1,129 matches on 100k
 * messages, PGlite: 18 -> 4 ms; 6,386: 28 -> 20 ms), and an `or` with the sender's address becomes
 * a BitmapOr of both indexes.
 */
export type Reading = 'page' | 'all';

/**
 * Messages whose vector matches `query` (a prefixQuery result). The query's words are taken as
 * they are, like the stored vector's (searchVectorText): no PostgreSQL parser in between.
 */
const contentMatches = (accountId: number, query: string, reading: Reading) =>
  reading === 'all'
    ? // The account first: the index (031) then reads this mailbox's entries only, not every mailbox's matches.
      sql<SqlBool>`messages.id = any(array(select message_id from message_contents
        where account_id = ${accountId} and search_vector @@ ${query}::tsquery))`
    : sql<SqlBool>`exists (select from message_contents
        where message_id = messages.id and search_vector @@ ${query}::tsquery)`;

/** ILIKE pattern for a substring, with the pattern characters taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Where a search's text is looked for when it names no fields. */
const TEXT_FIELDS: readonly SearchField[] = ['subject', 'from', 'body'];

/**
 * Every word in any of the fields; the sender (`from`) also matches a piece of an address (trigram
 * index on from_email).
 */
function fieldMatches(
  accountId: number,
  fields: readonly SearchField[],
  text: string,
  reading: Reading,
): RawBuilder<SqlBool> | null {
  const query = prefixQuery(text, fields);
  const substring =
    fields.includes('from') && text.trim().length >= 3
      ? sql<SqlBool>`messages.from_email ilike ${containsPattern(text.trim())}`
      : null;
  if (query && substring) return sql<SqlBool>`(${substring} or ${contentMatches(accountId, query, reading)})`;
  if (substring) return substring;
  return query ? contentMatches(accountId, query, reading) : null;
}

/** The never-matching condition, for input with no words at all. */
const nothing = sql<SqlBool>`false`;

/** The messages a label's saved search finds (in its folder, when it has one); null when it has no search. */
export function savedSearchCondition(
  accountId: number,
  label: Label,
  reading: Reading = 'page',
): RawBuilder<SqlBool> | null {
  const search = fieldMatches(accountId, [label.search_field], label.search_content, reading);
  if (!search) return null;
  return label.folder_id !== null
    ? sql<SqlBool>`(messages.folder_id = ${label.folder_id} and ${search})`
    : search;
}

/** A label's view: messages carrying the keyword, and those its saved search finds. */
export function labelCondition(accountId: number, label: Label, reading: Reading): RawBuilder<SqlBool> {
  const keyword = sql<SqlBool>`messages.labels @> ${sql.val([label.id])}::bigint[]`;
  const saved = savedSearchCondition(accountId, label, reading);
  return saved ? sql<SqlBool>`(${keyword} or ${saved})` : keyword;
}

export function filterCondition(f: MessageFilter, reading: Reading): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`messages.account_id = ${f.accountId}`];
  if (f.folderId != null) parts.push(sql<SqlBool>`messages.folder_id = ${f.folderId}`);
  if (f.label) parts.push(labelCondition(f.accountId, f.label, reading));
  if (f.scope && f.scope.kind !== 'all') parts.push(scopeCondition(f.scope));
  if (f.text?.trim()) {
    // Without fields, words only (no piece of an address): the search as it was before fields.
    const search = f.fields
      ? fieldMatches(f.accountId, f.fields, f.text, reading)
      : ((q) => (q ? contentMatches(f.accountId, q, reading) : null))(prefixQuery(f.text, TEXT_FIELDS));
    parts.push(search ?? nothing);
  }
  if (f.subject?.trim()) parts.push(fieldMatches(f.accountId, ['subject'], f.subject, reading) ?? nothing);
  if (f.from?.trim()) parts.push(fieldMatches(f.accountId, ['from'], f.from, reading) ?? nothing);
  // Dates are the dates shown (messageDate); the arrival bound beside `since` lets the indexes narrow it first.
  if (f.since)
    parts.push(
      sql<SqlBool>`messages.received_at >= ${earliestArrivalFor(f.since)}`,
      sql<SqlBool>`${messageDateSql()} >= ${f.since}`,
    );
  if (f.before) parts.push(sql<SqlBool>`${messageDateSql()} <= ${f.before}`);
  for (const flag of new Set(f.flags ?? [])) {
    if (flag === 'seen') parts.push(sql<SqlBool>`messages.seen`);
    if (flag === 'unseen') parts.push(sql<SqlBool>`not messages.seen`);
    if (flag === 'flagged') parts.push(sql<SqlBool>`messages.flagged`);
    if (flag === 'unflagged') parts.push(sql<SqlBool>`not messages.flagged`);
  }
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** True when the filter narrows nothing beyond the account: a bulk action on it would hit everything. */
export function isUnbounded(f: MessageFilter): boolean {
  return (
    f.folderId == null &&
    !f.label &&
    (!f.scope || f.scope.kind === 'all') &&
    !f.text?.trim() &&
    !f.subject?.trim() &&
    !f.from?.trim() &&
    !f.since &&
    !f.before &&
    !f.flags?.length
  );
}

/** Day strings are whole UTC days (SPEC §5): since = start of the day, before = its end. */
export function dayBound(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  return new Date(value);
}
