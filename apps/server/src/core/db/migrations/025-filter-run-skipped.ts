import { sql, type Kysely } from 'kysely';

/**
 * A run over a folder counts the messages it left as they are because it could not read them (a blob missing from
 * the store) or the script failed on them (a runtime error): before, it passed over them without a word.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table filter_runs add column skipped integer not null default 0`.execute(db);
}
