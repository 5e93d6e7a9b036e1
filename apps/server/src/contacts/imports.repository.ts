import { sql, type Selectable } from 'kysely';
import { CONTACT_IMPORT_SKIPPED_LISTED, type ContactImportResponse } from '@mailroom/protocol';
import { type Database, type Db, ownRow, type Trx } from '../core/db/index.js';

/** contact_imports (migration 033): a contacts file being imported, a job a batch at a time. */
export type ContactImportRow = Selectable<Database['contact_imports']>;

/** The columns a client sees (not the file). */
const shown = [
  'id',
  'account_id',
  'state',
  'format',
  'group_id',
  'total',
  'done',
  'added',
  'updated',
  'unchanged',
  'groups_added',
  'skipped',
  'skipped_count',
  'over_limit',
  'groups_over_limit',
  'error',
  'created_at',
  'updated_at',
] as const;
export type ContactImportView = Pick<ContactImportRow, (typeof shown)[number]>;

/** How far the stored import got: its state, counts, the entries it skipped (jsonb, or its text) and its error. */
export function progressOf(row: ContactImportView): ImportProgress {
  const skipped = typeof row.skipped === 'string' ? JSON.parse(row.skipped) : row.skipped;
  return {
    state: row.state,
    total: row.total,
    done: row.done,
    added: row.added,
    updated: row.updated,
    unchanged: row.unchanged,
    groups_added: row.groups_added,
    skipped: skipped as ImportProgress['skipped'],
    skipped_count: row.skipped_count,
    over_limit: row.over_limit,
    groups_over_limit: row.groups_over_limit,
    error: row.error,
  };
}

export function toContactImport(row: ContactImportView): ContactImportResponse {
  const progress = progressOf(row);
  return {
    id: Number(row.id),
    ...progress,
    skipped: progress.skipped.slice(0, CONTACT_IMPORT_SKIPPED_LISTED),
  };
}

/** A new queued import; the partial unique index refuses a second unfinished one of the account. */
export async function insertImport(
  db: Db | Trx,
  values: { account_id: number; format: string; group_id: number | null; blob_hash: string },
): Promise<ContactImportView> {
  return db.insertInto('contact_imports').values(values).returning(shown).executeTakeFirstOrThrow();
}

export async function findImport(
  db: Db,
  accountId: number,
  id: number,
): Promise<ContactImportView | undefined> {
  return db.selectFrom('contact_imports').select(shown).where(ownRow(id, accountId)).executeTakeFirst();
}

/** Marks the import running (its job claimed it) and answers it; undefined once it has finished. */
export async function startImportRun(db: Db, id: number): Promise<ContactImportRow | undefined> {
  return db
    .updateTable('contact_imports')
    .set({ state: 'running', updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
}

export interface ImportProgress {
  state: ContactImportRow['state'];
  total: number;
  done: number;
  added: number;
  updated: number;
  unchanged: number;
  groups_added: number;
  skipped: { entry: number; reason: string }[];
  skipped_count: number;
  over_limit: number;
  groups_over_limit: number;
  error: string | null;
}

/** Stores how far the import got (in the batch's own transaction); a finished import lets go of its file. */
export async function saveProgress(trx: Trx | Db, id: number, p: ImportProgress): Promise<ContactImportView> {
  const finished = p.state === 'done' || p.state === 'failed';
  return trx
    .updateTable('contact_imports')
    .set({
      ...p,
      skipped: JSON.stringify(p.skipped.slice(0, CONTACT_IMPORT_SKIPPED_LISTED)),
      updated_at: sql<Date>`now()`,
      ...(finished ? { blob_hash: null } : {}),
    })
    .where('id', '=', id)
    .returning(shown)
    .executeTakeFirstOrThrow();
}

/** Which of `hashes` an unfinished import still reads (for the blob collector). */
export async function blobsOfImports(db: Db, hashes: string[]): Promise<string[]> {
  if (!hashes.length) return [];
  const rows = await db
    .selectFrom('contact_imports')
    .select('blob_hash')
    .where('blob_hash', 'in', hashes)
    .execute();
  return rows.map((r) => r.blob_hash!);
}
