import { sql, type Kysely } from 'kysely';

/**
 * Small blobs (most messages: half of a realistic mailbox's are under 2 KB) are kept in the database, compressed,
 * instead of a file each: a file takes at least one 4 KiB block, so a 100k mailbox of 448 MiB took 674 MiB of blob
 * files. `codec` 0 is the bytes as they are, 1 raw DEFLATE. `data` is stored without PostgreSQL's own compression
 * (storage external): it is compressed already when that helps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table blobs (
    hash text primary key,
    size integer not null,
    codec smallint not null,
    data bytea not null
  )`.execute(db);
  await sql`alter table blobs alter column data set storage external`.execute(db);
}
