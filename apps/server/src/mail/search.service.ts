import type { MailListResponse, MessageQuery } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { requireAccount } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { groupByFolder, requireFolder, requireLabel, type Scope } from '../mailbox/index.js';
import { narrowScope, scopeOf } from '../addresses/index.js';
import type { Principal } from '../accounts/index.js';
import { toListItem } from './list-items.js';
import { withSavedSearchLabels } from './saved-search-labels.js';
import { countMessages, matchingMessages, pageOfMessages } from './search.repository.js';
import { dayBound, filterCondition, isUnbounded, type MessageFilter } from './search.query.js';

/**
 * Checks the ids a query names against the caller (entity_not_found otherwise) and reads its dates.
 * `scope` is what the session may see (scopeOf); alias_id narrows it further for the owner.
 */
export async function resolveQuery(
  db: Db,
  accountId: number,
  query: MessageQuery,
  scope: Scope = { kind: 'all' },
): Promise<MessageFilter> {
  const since = dayBound(query.date?.since, false);
  const before = dayBound(query.date?.before, true);
  if ((since && isNaN(since.getTime())) || (before && isNaN(before.getTime())))
    throw new DomainError('invalid_request_params');
  return {
    accountId,
    folderId: query.folder_id != null ? (await requireFolder(db, accountId, query.folder_id)).id : null,
    label: query.label_id != null ? await requireLabel(db, accountId, query.label_id) : null,
    scope: await narrowScope(db, accountId, scope, query.alias_id ?? 'all', 'nothing'),
    ...(query.from !== undefined ? { from: query.from } : {}),
    ...(query.subject !== undefined ? { subject: query.subject } : {}),
    ...(query.text !== undefined ? { text: query.text } : {}),
    ...(query.fields ? { fields: [...new Set(query.fields)] } : {}),
    ...(since ? { since } : {}),
    ...(before ? { before } : {}),
    ...(query.flags ? { flags: query.flags } : {}),
  };
}

async function listPage(
  db: Db,
  filter: MessageFilter,
  page: number,
  limit: number,
): Promise<MailListResponse> {
  const [rows, total] = await Promise.all([
    pageOfMessages(db, filterCondition(filter, 'page'), { limit, offset: (page - 1) * limit }),
    countMessages(db, filterCondition(filter, 'all')),
  ]);
  const messages = await withSavedSearchLabels(db, filter.accountId, rows.map(toListItem));
  return { messages, total, all: total };
}

/** POST messages/search: one page of the matches, newest first; total and all both count every match. */
export async function searchMessages(
  db: Db,
  principal: Principal,
  query: MessageQuery,
): Promise<MailListResponse> {
  const scope = await scopeOf(db, principal);
  return listPage(db, await resolveQuery(db, principal.accountId, query, scope), query.page, query.limit);
}

/** GET messages/label/{id}: the keyword's messages and the saved search's, in every folder. */
export async function labelMessages(
  db: Db,
  accountId: number,
  labelId: number,
  query: { a_id: 'all' | number; page: number; limit?: number | undefined },
): Promise<MailListResponse> {
  const label = await requireLabel(db, accountId, labelId);
  const limit = query.limit ?? (await requireAccount(db, accountId)).settings.per_page;
  const filter: MessageFilter = {
    accountId,
    label,
    scope: await narrowScope(db, accountId, { kind: 'all' }, query.a_id, 'nothing'),
  };
  return listPage(db, filter, query.page, limit);
}

/**
 * Every message a bulk request means (all pages), grouped by folder. A request that narrows
 * nothing (no folder, label or criterion) is refused rather than taken as "the whole mailbox".
 */
export async function resolveBulkTargets(db: Db, accountId: number, query: MessageQuery) {
  const filter = await resolveQuery(db, accountId, query);
  if (isUnbounded(filter)) throw new DomainError('invalid_request_params');
  return groupByFolder(await matchingMessages(db, filterCondition(filter, 'all')));
}
