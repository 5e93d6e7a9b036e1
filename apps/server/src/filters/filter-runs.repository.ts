import { sql } from 'kysely';
import type { FilterRun } from '@mailroom/protocol';
import type { Db, Trx } from '../core/db/index.js';
import type { Selectable } from 'kysely';
import type { Database } from '../core/db/index.js';

export type FilterRunRow = Selectable<Database['filter_runs']>;

export function toFilterRun(row: FilterRunRow): FilterRun {
  return {
    id: row.id,
    folder_id: row.folder_id,
    dry_run: row.dry_run,
    state: row.state,
    // The folder's count when the run began: mail that arrives or leaves meanwhile changes what there is to do, so
    // a finished run's total is what it went through, and a running one never shows more done than in all.
    total: row.state === 'done' ? row.done : Math.max(row.total, row.done),
    done: row.done,
    counts: {
      matched: row.matched,
      moved: row.moved,
      flagged: row.flagged,
      labelled: row.labelled,
      deleted: row.deleted,
      skipped: row.skipped,
    },
    error: row.error,
  };
}

/** A new queued run; the partial unique index refuses a second queued or running run of one folder. */
export async function insertRun(
  db: Db,
  values: { account_id: number; folder_id: number; script: string; dry_run: boolean; total: number },
): Promise<FilterRunRow> {
  return db.insertInto('filter_runs').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findRun(db: Db, accountId: number, id: number): Promise<FilterRunRow | undefined> {
  return db
    .selectFrom('filter_runs')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The run, while it is unfinished (queued or running). */
export async function unfinishedRun(db: Db, id: number): Promise<FilterRunRow | undefined> {
  return db
    .selectFrom('filter_runs')
    .selectAll()
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
}

/** The run row, locked for this transaction (its job's lease keeps other processes off it); undefined once finished. */
export async function lockRun(trx: Trx, id: number): Promise<FilterRunRow | undefined> {
  return trx
    .selectFrom('filter_runs')
    .selectAll()
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .forUpdate()
    .executeTakeFirst();
}

export interface RunProgress {
  state: FilterRunRow['state'];
  done: number;
  cursor_uid: number;
  matched: number;
  moved: number;
  flagged: number;
  labelled: number;
  deleted: number;
  skipped: number;
  error: string | null;
}

export async function updateRun(trx: Trx, id: number, progress: RunProgress): Promise<FilterRunRow> {
  return trx
    .updateTable('filter_runs')
    .set({ ...progress, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
