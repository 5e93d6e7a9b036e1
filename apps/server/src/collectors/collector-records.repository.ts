import { sql, type Selectable } from 'kysely';
import { countRows, type Database, type Db, type Trx } from '../core/db/index.js';

/**
 * The import job's SQL of what was copied (collector_folders, collector_messages; migration 029): each remote folder's
 * UIDVALIDITY and how far it was read, each copied message's remote UID and fingerprint, and the records kept when a
 * collector is removed, for the same remote mailbox added again.
 */

export type CollectorFolderRow = Selectable<Database['collector_folders']>;

export async function collectorFolders(db: Db, collectorId: number): Promise<CollectorFolderRow[]> {
  return db
    .selectFrom('collector_folders')
    .selectAll()
    .where('collector_id', '=', collectorId)
    .orderBy('id')
    .execute();
}

/** The row of a remote folder, made the first time it is seen. */
export async function ensureCollectorFolderRow(
  db: Db,
  collectorId: number,
  remotePath: string,
): Promise<CollectorFolderRow> {
  await db
    .insertInto('collector_folders')
    .values({ collector_id: collectorId, remote_path: remotePath })
    .onConflict((oc) => oc.columns(['collector_id', 'remote_path']).doNothing())
    .execute();
  return db
    .selectFrom('collector_folders')
    .selectAll()
    .where('collector_id', '=', collectorId)
    .where('remote_path', '=', remotePath)
    .executeTakeFirstOrThrow();
}

export async function updateCollectorFolder(
  db: Db,
  id: number,
  patch: Partial<{
    folder_id: number | null;
    uidvalidity: number;
    last_uid: number;
    highest_modseq: string | null;
    messages_total: number;
    messages_done: number;
  }>,
): Promise<void> {
  await db.updateTable('collector_folders').set(patch).where('id', '=', id).execute();
}

/** Within a batch: the folder's highest copied UID moves up (never down) and its done count grows. */
export async function advanceCollectorFolder(
  trx: Trx,
  id: number,
  lastUid: number,
  done: number,
): Promise<void> {
  await trx
    .updateTable('collector_folders')
    .set({
      last_uid: sql<number>`greatest(last_uid, ${lastUid}::bigint)`,
      messages_done: sql<number>`messages_done + ${done}::int`,
    })
    .where('id', '=', id)
    .execute();
}

/** How many remote messages of this folder are recorded as copied under its current UIDVALIDITY. */
export async function countCopied(db: Db, collectorFolderId: number, uidvalidity: number): Promise<number> {
  return countRows(
    db
      .selectFrom('collector_messages')
      .where('collector_folder_id', '=', collectorFolderId)
      .where('uidvalidity', '=', uidvalidity),
  );
}

/** Whether anything of this folder was copied under another UIDVALIDITY (then fingerprints find it). */
export async function hasOtherUidvalidity(
  db: Db,
  collectorFolderId: number,
  uidvalidity: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('collector_messages')
    .select('uid')
    .where('collector_folder_id', '=', collectorFolderId)
    .where('uidvalidity', '<>', uidvalidity)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface FingerprintMatch {
  /** Rows with this fingerprint under earlier UIDVALIDITYs. */
  before: number;
  /** Rows with it under the current one. */
  now: number;
  /** The message one of the earlier rows became (null: never stored, or purged here since). */
  messageId: number | null;
}

/** What the fingerprints of a batch matched: the copies made under earlier UIDVALIDITYs and under the current one. */
export async function matchFingerprints(
  db: Db,
  collectorFolderId: number,
  uidvalidity: number,
  fingerprints: string[],
): Promise<Map<string, FingerprintMatch>> {
  const matches = new Map<string, FingerprintMatch>();
  if (!fingerprints.length) return matches;
  const rows = await db
    .selectFrom('collector_messages')
    .select(['fingerprint', 'uidvalidity', 'message_id'])
    .where('collector_folder_id', '=', collectorFolderId)
    .where('fingerprint', '=', sql<string>`any(${[...new Set(fingerprints)]}::text[])`)
    .execute();
  for (const row of rows) {
    const match = matches.get(row.fingerprint) ?? { before: 0, now: 0, messageId: null };
    if (Number(row.uidvalidity) === uidvalidity) match.now++;
    else {
      match.before++;
      match.messageId ??= row.message_id;
    }
    matches.set(row.fingerprint, match);
  }
  return matches;
}

export interface CopiedMessage {
  uid: number;
  messageId: number | null;
  fingerprint: string;
}

/**
 * Records remote messages as copied (or deliberately not copied: skipped, matched, discarded) unless already
 * recorded: returns the UIDs this call recorded. Run inside the transaction that stores their messages, so a message
 * and its record commit together, and a second process that reaches the same UIDs records and stores nothing.
 */
export async function recordCopied(
  trx: Trx,
  collectorFolderId: number,
  uidvalidity: number,
  rows: CopiedMessage[],
): Promise<Set<number>> {
  if (!rows.length) return new Set();
  const inserted = await trx
    .insertInto('collector_messages')
    .values(
      rows.map((r) => ({
        collector_folder_id: collectorFolderId,
        uidvalidity,
        uid: r.uid,
        message_id: r.messageId,
        fingerprint: r.fingerprint,
      })),
    )
    .onConflict((oc) => oc.columns(['collector_folder_id', 'uidvalidity', 'uid']).doNothing())
    .returning('uid')
    .execute();
  return new Set(inserted.map((r) => Number(r.uid)));
}

export async function setCopiedMessage(
  trx: Trx,
  collectorFolderId: number,
  uidvalidity: number,
  uid: number,
  messageId: number,
): Promise<void> {
  await trx
    .updateTable('collector_messages')
    .set({ message_id: messageId })
    .where('collector_folder_id', '=', collectorFolderId)
    .where('uidvalidity', '=', uidvalidity)
    .where('uid', '=', uid)
    .execute();
}

/** The local messages remote UIDs became (purged ones and never-stored ones are absent). */
export async function copiedMessageIds(
  db: Db,
  collectorFolderId: number,
  uidvalidity: number,
  uids: number[],
): Promise<Map<number, number>> {
  if (!uids.length) return new Map();
  const rows = await db
    .selectFrom('collector_messages')
    .select(['uid', 'message_id'])
    .where('collector_folder_id', '=', collectorFolderId)
    .where('uidvalidity', '=', uidvalidity)
    .where('uid', '=', sql<number>`any(${uids}::bigint[])`)
    .where('message_id', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [Number(r.uid), r.message_id!]));
}

/** The remote mailbox a record belongs to: its server (without case) and the login signed in with. */
export interface RemoteMailbox {
  accountId: number;
  host: string;
  login: string;
}

/**
 * A collector deleted with its mail kept: its records of what was copied stay, detached from it (migration 037), so
 * the same mailbox added again takes them up instead of copying everything a second time.
 */
export async function keepCollectorRecords(trx: Trx, collectorId: number, remote: RemoteMailbox) {
  await trx
    .updateTable('collector_folders')
    .set({
      collector_id: null,
      kept_account_id: remote.accountId,
      kept_host: remote.host.toLowerCase(),
      kept_login: remote.login,
      kept_at: sql<Date>`now()`,
    })
    .where('collector_id', '=', collectorId)
    .execute();
}

/**
 * A new collector takes up the records kept for its mailbox: per remote folder the latest kept, and only where the
 * local folder it filled is still here (a folder the user deleted since is copied afresh). The rest are dropped.
 * Answers how many remote folders were taken up.
 */
export async function adoptKeptRecords(
  trx: Trx,
  collectorId: number,
  remote: RemoteMailbox,
): Promise<number> {
  const kept = await trx
    .selectFrom('collector_folders')
    .select(['id', 'remote_path', 'folder_id'])
    .where('kept_account_id', '=', remote.accountId)
    .where('kept_host', '=', remote.host.toLowerCase())
    .where('kept_login', '=', remote.login)
    .orderBy('kept_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (!kept.length) return 0;
  const taken = new Map<string, number>();
  for (const row of kept)
    if (row.folder_id !== null && !taken.has(row.remote_path)) taken.set(row.remote_path, row.id);
  const dropped = kept.map((r) => r.id).filter((id) => ![...taken.values()].includes(id));
  if (dropped.length) await trx.deleteFrom('collector_folders').where('id', 'in', dropped).execute();
  if (taken.size)
    await trx
      .updateTable('collector_folders')
      .set({
        collector_id: collectorId,
        kept_account_id: null,
        kept_host: null,
        kept_login: null,
        kept_at: null,
      })
      .where('id', 'in', [...taken.values()])
      .execute();
  return taken.size;
}
