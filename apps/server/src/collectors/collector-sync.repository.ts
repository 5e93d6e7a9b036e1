import { sql, type Selectable } from 'kysely';
import type { CollectorState } from '@mailroom/protocol';
import { countRows, type Database, type Db, type Trx } from '../core/db/index.js';
import type { CollectorRow } from './collectors.repository.js';

/**
 * The import job's SQL (collectors, collector_folders, collector_messages; migration 029): claiming a due collector
 * under a lease, what was copied of each remote folder, and the pass's progress and outcome.
 */

export type { CollectorRow };
export type CollectorFolderRow = Selectable<Database['collector_folders']>;

/**
 * Takes the collector for its pass when it is due (its job was claimed from the queue, so no other process asks for
 * it meanwhile): its lease, `lease_until`, is renewed while the pass runs and fences every write of the pass; a
 * process that dies leaves a lease that runs out, and the collector is due again then (its next_sync_at is null while
 * a pass runs, so the lease's end is when it is due). Undefined when it is not due, disabled, stopped or gone.
 */
export async function takeCollector(
  db: Db,
  id: number,
  owner: string,
  leaseMs: number,
): Promise<CollectorRow | undefined> {
  return db
    .updateTable('collectors')
    .set({
      lease_owner: owner,
      lease_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval`,
      next_sync_at: null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('enabled', '=', true)
    .where('state', 'not in', ['stopped', 'disabled'])
    .where(sql<boolean>`coalesce(next_sync_at, lease_until) <= now()`)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();
}

/**
 * In how many milliseconds the collector is due (0 when it is now; not before the end of a lease a pass holds); null when
 * it is disabled, stopped or gone: its job then ends.
 */
export async function collectorDueInMs(db: Db, id: number): Promise<number | null> {
  const row = await db
    .selectFrom('collectors')
    // A live lease (a pass under way) holds it until the lease ends, even when next_sync_at came due meanwhile.
    .select(
      sql<number | null>`extract(epoch from greatest(coalesce(next_sync_at, lease_until),
        case when lease_until > now() then lease_until end) - now()) * 1000`.as('ms'),
    )
    .where('id', '=', id)
    .where('enabled', '=', true)
    .where('state', 'not in', ['stopped', 'disabled'])
    .executeTakeFirst();
  if (!row || row.ms === null) return null;
  return Math.max(0, Math.ceil(Number(row.ms)));
}

/** Who holds a lease that has not run out yet (a handful of rows: the passes running now). */
export async function liveLeaseOwners(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('collectors')
    .select('lease_owner')
    .distinct()
    .where('lease_owner', 'is not', null)
    .where('lease_until', '>', sql<Date>`now()`)
    .execute();
  return rows.map((r) => r.lease_owner!);
}

/**
 * Ends now the leases of owners known to be gone (a process of this host that no longer exists), so their collectors
 * are due at once instead of when the leases run out. Answers how many were ended.
 */
export async function expireLeasesOf(db: Db, owners: readonly string[]): Promise<number> {
  if (owners.length === 0) return 0;
  const rows = await db
    .updateTable('collectors')
    .set({ lease_until: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('lease_owner', 'in', [...owners])
    .where('lease_until', '>', sql<Date>`now()`)
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Renews the lease while the pass works; false when it is no longer this process's (it ran out and another took the
 * collector) or the collector was disabled, deleted or stopped meanwhile: the pass then ends.
 */
export async function renewLease(db: Db, id: number, owner: string, leaseMs: number): Promise<boolean> {
  const row = await db
    .updateTable('collectors')
    .set({ lease_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('enabled', '=', true)
    .where('state', 'not in', ['stopped', 'disabled'])
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface CollectorProgressColumns {
  folders_done: number;
  folders_total: number;
  messages_done: number;
  messages_total: number;
  messages_skipped: number;
}

/** The pass's progress (and state 'importing'), while the lease is this process's; the row after, or undefined. */
export async function saveProgress(
  db: Db,
  id: number,
  owner: string,
  progress: CollectorProgressColumns,
): Promise<CollectorRow | undefined> {
  return db
    .updateTable('collectors')
    .set({ ...progress, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .returningAll()
    .executeTakeFirst();
}

export async function markImporting(db: Db, id: number, owner: string): Promise<CollectorRow | undefined> {
  return db
    .updateTable('collectors')
    .set({ state: 'importing', updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('enabled', '=', true)
    .returningAll()
    .executeTakeFirst();
}

export interface PassOutcome {
  state: Extract<CollectorState, 'idle' | 'retrying' | 'stopped'>;
  /** When the next pass is due (null when stopped). */
  nextSyncInMs: number | null;
  lastError: string | null;
  failures: number;
  authFailures: number;
  /** The pass went over the whole mailbox. */
  synced: boolean;
  progress?: CollectorProgressColumns;
}

/**
 * Ends a pass: the lease is given up and the outcome written — unless the user disabled the collector meanwhile
 * (it stays disabled, with no next pass). Only this process's lease is ended; undefined when it was not its own.
 */
export async function releaseCollector(
  db: Db,
  id: number,
  owner: string,
  outcome: PassOutcome,
): Promise<CollectorRow | undefined> {
  return releaseWith(db, id, owner, outcome);
}

async function releaseWith(db: Db, id: number, owner: string, outcome: PassOutcome) {
  const next =
    outcome.nextSyncInMs === null
      ? null
      : sql<Date>`now() + ${`${Math.round(outcome.nextSyncInMs)} milliseconds`}::interval`;
  const nextOrNull = next ?? sql<null>`null::timestamptz`;
  return db
    .updateTable('collectors')
    .set({
      state: sql<CollectorState>`case when enabled and state <> 'disabled' then ${outcome.state} else 'disabled' end`,
      next_sync_at: sql<Date | null>`case when enabled and state <> 'disabled' then ${nextOrNull} else null end`,
      last_error: outcome.lastError,
      last_error_at: outcome.lastError === null ? null : sql<Date>`now()`,
      ...(outcome.synced ? { last_sync_at: sql<Date>`now()` } : {}),
      failures: outcome.failures,
      auth_failures: outcome.authFailures,
      lease_owner: null,
      lease_until: null,
      ...(outcome.progress ?? {}),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .returningAll()
    .executeTakeFirst();
}

/** releaseCollector inside a transaction another step shares (the notice of a stop commits with it). */
export async function releaseCollectorIn(trx: Trx, id: number, owner: string, outcome: PassOutcome) {
  return releaseWith(trx, id, owner, outcome);
}

/**
 * Inside a batch's transaction: the lease is still this process's (and renewed). False means another process took
 * the collector (this one stalled past its lease) or it was disabled: the batch is rolled back.
 */
export async function holdsLease(trx: Trx, id: number, owner: string, leaseMs: number): Promise<boolean> {
  return renewLease(trx, id, owner, leaseMs);
}

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

export async function findCollectorRow(db: Db, id: number): Promise<CollectorRow | undefined> {
  return db.selectFrom('collectors').selectAll().where('id', '=', id).executeTakeFirst();
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
