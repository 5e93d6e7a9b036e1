import type { Db } from '../db/index.js';

/** The SQL of the `blobs` table (small blobs kept in the database). */

export interface BlobRow {
  size: number;
  codec: number;
  data: Uint8Array;
}

/** Inserts a blob unless one with its hash is there already (same hash, same bytes). */
export async function insertBlob(db: Db, hash: string, row: BlobRow): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ hash, size: row.size, codec: row.codec, data: row.data })
    .onConflict((c) => c.column('hash').doNothing())
    .execute();
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
