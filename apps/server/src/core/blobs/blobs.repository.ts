import { sql, type RawBuilder } from 'kysely';
import { type Db, deleteRows } from '../db/index.js';

/** The SQL of the `blobs` table (small blobs kept in the database). */

export interface BlobRow {
  size: number;
  codec: number;
  data: Uint8Array;
}

/**
 * Inserts a blob, or when one with its hash is there already (same hash, same bytes) sets its `written_at` to now:
 * the collector keeps what was written within its grace period, so a blob a new message re-uses stays.
 */
export async function insertBlob(db: Db, hash: string, row: BlobRow): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ hash, size: row.size, codec: row.codec, data: row.data })
    .onConflict((c) => c.column('hash').doUpdateSet({ written_at: sql<Date>`now()` }))
    .execute();
}

/**
 * insertBlobs as part of another statement (a data-modifying WITH: the message store's), the rows written only when
 * `when` holds — so blobs land in the same commit as the rows that name them, and not at all when nothing does.
 */
export function insertBlobSql(
  rows: (BlobRow & { hash: string })[],
  when: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const once = [...new Map(rows.map((r) => [r.hash, r])).values()];
  return sql`insert into blobs (hash, size, codec, data)
    select * from (values ${sql.join(
      once.map((r) => sql`(${r.hash}::text, ${r.size}::integer, ${r.codec}::smallint, ${r.data}::bytea)`),
    )}) as b (hash, size, codec, data) where ${when}
    on conflict (hash) do update set written_at = now()`;
}

/** Many rows in one statement (each hash once), as insertBlob writes one. */
export async function insertBlobs(db: Db, rows: (BlobRow & { hash: string })[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto('blobs')
    .values(rows.map((row) => ({ hash: row.hash, size: row.size, codec: row.codec, data: row.data })))
    .onConflict((c) => c.column('hash').doUpdateSet({ written_at: sql<Date>`now()` }))
    .execute();
}

/** The rows of those of `hashes` the table holds, in one query. */
export async function findBlobs(db: Db, hashes: readonly string[]): Promise<(BlobRow & { hash: string })[]> {
  if (!hashes.length) return [];
  return db
    .selectFrom('blobs')
    .select(['hash', 'size', 'codec', 'data'])
    .where('hash', '=', sql<string>`any(${sql.val([...new Set(hashes)])}::text[])`)
    .execute();
}

/** A page of the table's blobs after `after` (by hash), for the collector. */
export async function listBlobRows(
  db: Db,
  after: string,
  limit: number,
): Promise<{ hash: string; size: number; written_at: Date }[]> {
  return db
    .selectFrom('blobs')
    .select(['hash', 'size', 'written_at'])
    .where('hash', '>', after)
    .orderBy('hash')
    .limit(limit)
    .execute();
}

/**
 * Deletes the row unless it was written (or put again) at or after `since`. One statement: a put's upsert either
 * comes first (the row is then too new) or after (and inserts it again).
 */
export async function deleteBlobRowWrittenBefore(db: Db, hash: string, since: Date): Promise<boolean> {
  return (
    (await deleteRows(db.deleteFrom('blobs').where('hash', '=', hash).where('written_at', '<', since))) > 0
  );
}

export async function findBlob(db: Db, hash: string): Promise<BlobRow | undefined> {
  return db.selectFrom('blobs').select(['size', 'codec', 'data']).where('hash', '=', hash).executeTakeFirst();
}

export async function blobRowExists(db: Db, hash: string): Promise<boolean> {
  const row = await db.selectFrom('blobs').select('hash').where('hash', '=', hash).executeTakeFirst();
  return row !== undefined;
}

export async function deleteBlobRow(db: Db, hash: string): Promise<void> {
  await db.deleteFrom('blobs').where('hash', '=', hash).execute();
}
