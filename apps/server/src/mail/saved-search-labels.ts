import type { Db } from '../core/db/index.js';
import { listLabels } from '../mailbox/index.js';
import { savedSearchCondition } from './search.query.js';

/**
 * Adds to each row the labels whose saved search finds it, beside the labels put on it by hand, so a list row
 * and the reader show the same dots as the label's own view (SPEC §4 labeled). Only the rows at hand are
 * searched: one query per label with a saved search, over the ids of the page.
 */
export async function withSavedSearchLabels<T extends { id: number; labels: number[] }>(
  db: Db,
  accountId: number,
  items: T[],
): Promise<T[]> {
  if (items.length === 0) return items;
  const searches = (await listLabels(db, accountId)).flatMap((label) => {
    const condition = savedSearchCondition(accountId, label);
    return condition ? [{ labelId: label.id, condition }] : [];
  });
  if (searches.length === 0) return items;
  const ids = items.map((item) => item.id);
  const found = await Promise.all(
    searches.map(async ({ labelId, condition }) => {
      const rows = await db
        .selectFrom('messages')
        .select('messages.id')
        .where('messages.account_id', '=', accountId)
        .where('messages.id', 'in', ids)
        .where(condition)
        .execute();
      return { labelId, ids: new Set(rows.map((row) => Number(row.id))) };
    }),
  );
  return items.map((item) => {
    const extra = found
      .filter((match) => match.ids.has(item.id) && !item.labels.includes(match.labelId))
      .map((match) => match.labelId);
    return extra.length ? { ...item, labels: [...item.labels, ...extra] } : item;
  });
}
