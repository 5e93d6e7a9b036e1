import { sql, type Selectable } from 'kysely';
import {
  IMPORT_REPORT_LISTED,
  type MailImport,
  type MailImportFormat,
  type MailImportReportEntry,
} from '@mailroom/protocol';
import { type Database, type Db, ownRow, type Trx } from '../core/db/index.js';
import { blobsOfImportUploads, deleteUploadOfImport } from './import-uploads.repository.js';

/** mail_imports and mail_import_keys (migration 042). */
export type MailImportRow = Selectable<Database['mail_imports']>;

export function toMailImport(row: MailImportRow): MailImport {
  const report = (
    typeof row.report === 'string' ? JSON.parse(row.report) : row.report
  ) as MailImportReportEntry[];
  return {
    id: Number(row.id),
    state: row.state,
    format: row.format as MailImportFormat | null,
    file_name: row.file_name,
    total: row.total,
    done: row.position,
    stored: row.stored,
    already_here: row.already_here,
    skipped: row.skipped,
    failed: row.failed,
    report: report.slice(0, IMPORT_REPORT_LISTED),
    error: row.error,
    filters: row.filters,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export async function insertMailImport(
  trx: Trx,
  values: {
    account_id: number;
    file_name: string;
    source_path: string | null;
    source_blob: string | null;
    source_upload: number | null;
    filters: boolean;
  },
): Promise<MailImportRow> {
  return trx.insertInto('mail_imports').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findMailImport(
  db: Db,
  accountId: number,
  id: number,
): Promise<MailImportRow | undefined> {
  return db.selectFrom('mail_imports').selectAll().where(ownRow(id, accountId)).executeTakeFirst();
}

/** The account's imports, newest first (at most 50). */
export async function listMailImports(db: Db, accountId: number): Promise<MailImportRow[]> {
  return db
    .selectFrom('mail_imports')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

/** Marks the import running (its job claimed it) and answers it; undefined once it has finished. */
export async function startMailImportRun(db: Db, id: number): Promise<MailImportRow | undefined> {
  return db
    .updateTable('mail_imports')
    .set({ state: 'running', updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
}

export interface MailImportProgress {
  state: MailImportRow['state'];
  format: string | null;
  position: number;
  total: number;
  stored: number;
  already_here: number;
  skipped: number;
  failed: number;
  report: MailImportReportEntry[];
  error: string | null;
}

export function progressOf(row: MailImportRow): MailImportProgress {
  return {
    state: row.state,
    format: row.format,
    position: row.position,
    total: row.total,
    stored: row.stored,
    already_here: row.already_here,
    skipped: row.skipped,
    failed: row.failed,
    report: (typeof row.report === 'string' ? JSON.parse(row.report) : row.report) as MailImportReportEntry[],
    error: row.error,
  };
}

/**
 * Stores how far the import got, in the transaction of its batch; a finished import lets go of its file (a chunked
 * upload's row goes with its parts).
 */
export async function saveMailImportProgress(
  trx: Trx | Db,
  id: number,
  p: MailImportProgress,
): Promise<MailImportRow> {
  const finished = p.state === 'done' || p.state === 'failed';
  if (finished) await deleteUploadOfImport(trx, id);
  return trx
    .updateTable('mail_imports')
    .set({
      ...p,
      report: JSON.stringify(p.report.slice(0, IMPORT_REPORT_LISTED)),
      updated_at: sql<Date>`now()`,
      ...(finished ? { source_blob: null } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Which of `keys` the account has imported before (read before a batch is parsed: those need no work). */
export async function importedKeys(db: Db, accountId: number, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db
    .selectFrom('mail_import_keys')
    .select('key')
    .where('account_id', '=', accountId)
    .where('key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.key));
}

/**
 * Records `keys` as imported, under the account's lock: answers those that were not yet (the others another run
 * stored first), so each message is stored once.
 */
export async function claimImportKeys(trx: Trx, accountId: number, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await trx
    .insertInto('mail_import_keys')
    .values(keys.map((key) => ({ account_id: accountId, key })))
    .onConflict((oc) => oc.doNothing())
    .returning('key')
    .execute();
  return new Set(rows.map((r) => r.key));
}

/** Which of the blob hashes the account keeps a message of already (brought by SMTP, a collector, a send). */
export async function storedBlobHashes(db: Db, accountId: number, hashes: string[]): Promise<Set<string>> {
  if (!hashes.length) return new Set();
  const rows = await db
    .selectFrom('messages')
    .select('blob_hash')
    .distinct()
    .where('account_id', '=', accountId)
    .where('blob_hash', 'in', hashes)
    .execute();
  return new Set(rows.map((r) => r.blob_hash));
}

/** Which of `hashes` an unfinished import or an upload's part still holds (for the blob collector). */
export async function blobsOfMailImports(db: Db, hashes: string[]): Promise<string[]> {
  if (!hashes.length) return [];
  const rows = await db
    .selectFrom('mail_imports')
    .select('source_blob')
    .where('source_blob', 'in', hashes)
    .execute();
  return [...rows.map((r) => r.source_blob!), ...(await blobsOfImportUploads(db, hashes))];
}
