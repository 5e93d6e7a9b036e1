import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';

export interface EncryptedRow {
  id: string;
  account_id: number;
  sender_email: string;
  blob_hash: string;
  iterations: number;
  key_salt: string;
  auth_salt: string;
  auth_digest: string;
  failed_attempts: number;
  locked_at: Date | null;
  created_at: Date;
}

export async function insertEncrypted(
  db: Db,
  row: Omit<EncryptedRow, 'failed_attempts' | 'locked_at' | 'created_at'> & {
    size: number;
    expires_at: Date;
  },
): Promise<void> {
  await db.insertInto('encrypted_messages').values(row).execute();
}

const columns = [
  'id',
  'account_id',
  'sender_email',
  'blob_hash',
  'iterations',
  'key_salt',
  'auth_salt',
  'auth_digest',
  'failed_attempts',
  'locked_at',
  'created_at',
] as const;

/** A message that has not expired; `forUpdate` inside a transaction serialises attempts on it. */
export function findLiveEncrypted(db: Db, id: string, forUpdate = false): Promise<EncryptedRow | undefined> {
  return db
    .selectFrom('encrypted_messages')
    .select(columns)
    .where('id', '=', id)
    .where('expires_at', '>', sql<Date>`now()`)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** Counts one wrong password; locks the message when that makes `maxAttempts`. */
export async function recordFailure(
  db: Db,
  id: string,
  maxAttempts: number,
): Promise<{ failed_attempts: number; locked_now: boolean }> {
  const row = await db
    .updateTable('encrypted_messages')
    .set({
      failed_attempts: sql`failed_attempts + 1`,
      locked_at: sql`case when failed_attempts + 1 >= ${maxAttempts} then now() else null end`,
    })
    .where('id', '=', id)
    .where('locked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['failed_attempts', 'locked_at'])
    .executeTakeFirst();
  return { failed_attempts: row?.failed_attempts ?? maxAttempts, locked_now: Boolean(row?.locked_at) };
}

/** Removes up to `limit` expired rows and returns their ciphertext blobs. */
export async function takeExpired(db: Db, limit = 500): Promise<string[]> {
  const rows = await db
    .deleteFrom('encrypted_messages')
    .where(
      'id',
      'in',
      db
        .selectFrom('encrypted_messages')
        .select('id')
        .where('expires_at', '<=', sql<Date>`now()`)
        .limit(limit),
    )
    .returning('blob_hash')
    .execute();
  return rows.map((r) => r.blob_hash);
}

/** Which of `hashes` an encrypted message (expired or not: its sweep removes its own) still points at, for the blob collector. */
export async function blobsOfEncrypted(db: Db, hashes: string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const { rows } = await sql<{ hash: string }>`
    select distinct blob_hash as hash from encrypted_messages where blob_hash = any(${hashes}::text[])`.execute(
    db,
  );
  return rows.map((r) => r.hash);
}

/** Whether a live row still points at the blob (the same ciphertext sent twice, by a retry). */
export async function blobInUse(db: Db, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('encrypted_messages')
    .select('id')
    .where('blob_hash', '=', hash)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
