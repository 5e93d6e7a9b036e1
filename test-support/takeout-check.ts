import type { Kysely } from 'kysely';
import type { Database } from '../apps/server/src/core/db/index.js';
import type { TakeoutExpectation } from './mail-archives.js';

/** An account's messages as stored: folder (system or name), labels by name, flags, received date, bytes' hash. */
export async function storedMessages(db: Kysely<Database>, accountId: number) {
  const labels = new Map(
    (await db.selectFrom('labels').select(['id', 'name']).where('account_id', '=', accountId).execute()).map(
      (l) => [Number(l.id), l.name],
    ),
  );
  const rows = await db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .select([
      'messages.message_id',
      'messages.blob_hash',
      'messages.seen',
      'messages.flagged',
      'messages.draft',
      'messages.labels',
      'messages.received_at',
      'folders.system',
      'folders.name as folder',
    ])
    .where('messages.account_id', '=', accountId)
    .execute();
  return rows.map((r) => ({ ...r, labels: r.labels.map((id) => labels.get(Number(id))!).sort() }));
}

/**
 * Where a Takeout import went wrong, message by message (issue 33's check): each expected message stored once, byte
 * for byte (by its hash), with its Message-ID, in its folder (Archive when Gmail had none), its own labels, its
 * flags, and the topmost Received header's date. Empty when all is right.
 */
export async function takeoutMismatches(
  db: Kysely<Database>,
  accountId: number,
  expected: TakeoutExpectation[],
): Promise<string[]> {
  const rows = await storedMessages(db, accountId);
  const byHash = new Map(rows.map((r) => [r.blob_hash, r]));
  const wrong: string[] = [];
  if (rows.length !== expected.length)
    wrong.push(`${rows.length} messages stored, ${expected.length} expected`);
  for (const [i, want] of expected.entries()) {
    const row = byHash.get(want.hash);
    const say = (what: string, got: unknown, wanted: unknown) =>
      wrong.push(`message ${i} ${what}: ${JSON.stringify(got)}, expected ${JSON.stringify(wanted)}`);
    if (!row) {
      wrong.push(`message ${i} not stored byte for byte`);
      continue;
    }
    if (row.message_id !== want.messageId) say('Message-ID', row.message_id, want.messageId);
    if (want.system ? row.system !== want.system : row.folder !== 'INBOX.Archive')
      say('folder', row.system ?? row.folder, want.system ?? 'INBOX.Archive');
    if (JSON.stringify(row.labels) !== JSON.stringify([...want.labels].sort()))
      say('labels', row.labels, want.labels);
    if (row.seen !== want.seen || row.flagged !== want.flagged)
      say('flags', { seen: row.seen, flagged: row.flagged }, { seen: want.seen, flagged: want.flagged });
    if (want.receivedAt && new Date(row.received_at).getTime() !== want.receivedAt.getTime())
      say('received date', row.received_at, want.receivedAt);
  }
  return wrong;
}
