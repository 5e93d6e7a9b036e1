import { sql } from 'kysely';
import { type Db, deleteRows } from '../core/db/index.js';
import type { Principal } from '../accounts/index.js';

// ---- compose uploads

export interface UploadRow {
  id: number;
  blob_hash: string;
  name: string;
  content_type: string;
  size: number;
}

/** An upload is its session principal's: the mailbox owner's, or one password-access address's. */
export async function insertUploads(
  db: Db,
  principal: Principal,
  uploads: Omit<UploadRow, 'id'>[],
): Promise<UploadRow[]> {
  if (!uploads.length) return [];
  return db
    .insertInto('compose_uploads')
    .values(
      uploads.map((u) => ({ account_id: principal.accountId, alias_email: principal.aliasEmail, ...u })),
    )
    .returning(['id', 'blob_hash', 'name', 'content_type', 'size'])
    .execute();
}

/**
 * The principal's uploads among `ids` (others' ids are simply absent, the owner's for a
 * password-access session too, and the other way round), in the order asked.
 */
export async function findUploads(db: Db, principal: Principal, ids: number[]): Promise<UploadRow[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('compose_uploads')
    .select(['id', 'blob_hash', 'name', 'content_type', 'size'])
    .where('account_id', '=', principal.accountId)
    .where('alias_email', principal.aliasEmail === null ? 'is' : '=', principal.aliasEmail)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is UploadRow => r !== undefined);
}

/**
 * Whether the principal has an upload of these bytes (by hash, index compose_uploads_blob): only then may a new
 * upload of them re-use the stored blob without writing it (uploads.ts).
 */
export async function principalHasUpload(db: Db, principal: Principal, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('compose_uploads')
    .select('id')
    .where('blob_hash', '=', hash)
    .where('account_id', '=', principal.accountId)
    .where('alias_email', principal.aliasEmail === null ? 'is' : '=', principal.aliasEmail)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Bytes of uploads not yet sent or expired: they count against the quota until then. */
export async function pendingUploadBytes(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('compose_uploads')
    .select(sql<number>`coalesce(sum(size), 0)::bigint`.as('bytes'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** A draft save keeps its uploads alive; the sweep removes only uploads left untouched. */
export async function touchUploads(db: Db, accountId: number, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('compose_uploads')
    .set({ touched_at: new Date() })
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
}

export async function deleteUploads(db: Db, accountId: number, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('compose_uploads').where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/**
 * Which of `hashes` sending still needs, for the blob collector: a compose upload's bytes (until the hourly sweep
 * drops an unused one) or an outbox row's message (queued, or kept a week once finished, for a bounce's copy and an
 * operator). Both columns are hash-indexed (migration 030).
 */
export async function blobsOfSending(db: Db, hashes: string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const { rows } = await sql<{ hash: string }>`
    select blob_hash as hash from compose_uploads where blob_hash = any(${hashes}::text[])
    union
    select blob_hash from outbox where blob_hash = any(${hashes}::text[])
    union
    select blob_hash from scheduled_sends where state = 'waiting' and blob_hash = any(${hashes}::text[])`.execute(
    db,
  );
  return rows.map((r) => r.hash);
}

export async function deleteStaleUploads(db: Db, olderThan: Date): Promise<number> {
  return deleteRows(db.deleteFrom('compose_uploads').where('touched_at', '<', olderThan));
}

// ---- outbox

export interface OutboxRow {
  id: number;
  account_id: number;
  blob_hash: string;
  size: number;
  message_id: string | null;
  envelope_from: string;
  recipient: string;
  local: boolean;
  attempts: number;
  created_at: Date;
}

const outboxColumns = [
  'id',
  'account_id',
  'blob_hash',
  'size',
  'message_id',
  'envelope_from',
  'recipient',
  'local',
  'attempts',
  'created_at',
] as const;

export async function enqueue(
  db: Db,
  rows: Omit<OutboxRow, 'id' | 'attempts' | 'created_at'>[],
): Promise<OutboxRow[]> {
  if (!rows.length) return [];
  return db.insertInto('outbox').values(rows).returning(outboxColumns).execute();
}

/**
 * The outbox rows of claimed jobs (the job queue's kinds outbox-local/outbox-remote, key the row's id) as their
 * attempt starts: each still queued row takes its job's attempt count (claims so far, this one counted, so an attempt
 * a dead process never finished counts too). Rows already sent or bounced are not returned.
 */
export async function startAttempts(
  db: Db,
  claims: { id: number; attempts: number }[],
): Promise<OutboxRow[]> {
  if (!claims.length) return [];
  const { rows } = await sql<OutboxRow>`
    update outbox set attempts = c.attempts
    from unnest(${claims.map((c) => c.id)}::bigint[], ${claims.map((c) => c.attempts)}::int[]) as c(id, attempts)
    where outbox.id = c.id and outbox.status = 'queued'
    returning ${sql.join(outboxColumns.map((c) => sql.ref(`outbox.${c}`)))}`.execute(db);
  return rows;
}

/**
 * Rows given back before their attempt (the process is stopping; their jobs are released): the claim's attempt not
 * counted. A row claimed again meanwhile by another process has another attempt count and is left alone.
 */
export async function uncountAttempts(db: Db, rows: Pick<OutboxRow, 'id' | 'attempts'>[]): Promise<void> {
  for (const row of rows)
    await db
      .updateTable('outbox')
      .set({ attempts: sql`attempts - 1` })
      .where('id', '=', row.id)
      .where('status', '=', 'queued')
      .where('attempts', '=', row.attempts)
      .execute();
}

/** Queued rows, local and remote: the outbox gauge of /metrics. */
export async function countQueued(db: Db): Promise<{ local: number; remote: number }> {
  const rows = await db
    .selectFrom('outbox')
    .select(['local', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', '=', 'queued')
    .groupBy('local')
    .execute();
  return {
    local: Number(rows.find((r) => r.local)?.n ?? 0),
    remote: Number(rows.find((r) => !r.local)?.n ?? 0),
  };
}

export async function markSent(db: Db, id: number): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'sent', done_at: new Date(), last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function markBounced(db: Db, id: number, error: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'bounced', done_at: new Date(), last_error: error.slice(0, 1000) })
    .where('id', '=', id)
    .execute();
}

/** What the last attempt of a row to be retried ran into (its job holds when it is due). */
export async function recordAttemptError(db: Db, id: number, error: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ last_error: error.slice(0, 1000) })
    .where('id', '=', id)
    .execute();
}

export async function deleteFinishedOutbox(db: Db, olderThan: Date): Promise<number> {
  return deleteRows(db.deleteFrom('outbox').where('status', '<>', 'queued').where('done_at', '<', olderThan));
}
