import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';

/**
 * Which of `hashes` a stored message still needs, for the blob collector: its raw message (`messages.blob_hash`,
 * hash-indexed) or, in a message stored before attachments became ranges of the message (2026-11-24), an
 * attachment's own blob (the partial GIN index of migration 030; a message stored since has none). Drafts,
 * collected mail and notices are messages like any other.
 */
export async function blobsOfMessages(db: Db, hashes: string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const { rows } = await sql<{ hash: string }>`
    select blob_hash as hash from messages where blob_hash = any(${hashes}::text[])
    union
    select h.hash
    from messages m
    cross join lateral jsonb_array_elements_text(jsonb_path_query_array(m.attachments, '$[*].blob_hash')) as h(hash)
    where m.attachments @? '$[*].blob_hash'
      and jsonb_path_query_array(m.attachments, '$[*].blob_hash') ?| ${hashes}::text[]
      and h.hash = any(${hashes}::text[])`.execute(db);
  return rows.map((r) => r.hash);
}

/** The stored bytes' hash of a message of the account, or null when it is gone. */
export async function messageBlobHash(db: Db, accountId: number, messageId: number): Promise<string | null> {
  const row = await db
    .selectFrom('messages')
    .select('blob_hash')
    .where('id', '=', messageId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.blob_hash ?? null;
}
