import { sql, type Kysely } from 'kysely';
import { searchVectorText010 } from './010-search-vector.js';

/**
 * Search vectors with each field's words under its own prefix instead of field weights (see
 * mail/search-vector.ts): a weighted query made PostgreSQL recheck every index match against the
 * stored vector. Rows stored before are rebuilt; the index is dropped meanwhile and built once at
 * the end, which is far cheaper than updating it row by row.
 *
 * The index's pending list (fastupdate) is kept small: PGlite has no autovacuum, so inserted
 * vectors wait there until the list is full, and every search reads the whole list. On the 100k
 * corpus, 1,000-2,000 vectors pending doubled the index scan of a frequent word (2.5 -> 3-5 ms)
 * and raised the planner's estimate for it sevenfold; 256 kB instead of 4 MB bounds that and
 * still batches the index updates of an ingest burst.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index message_contents_search`.execute(db);
  for (let after = 0; ;) {
    const { rows } = await sql<{
      id: number;
      subject: string;
      addresses: {
        from?: { name: string; email: string }[];
        to?: { name: string; email: string }[];
        cc?: { name: string; email: string }[];
      };
      body_text: string;
    }>`
      select m.id, m.subject, m.addresses, c.body_text
      from messages m join message_contents c on c.message_id = m.id
      where m.id > ${after} order by m.id limit 500`.execute(db);
    if (!rows.length) break;
    const vectors = rows.map((row) => {
      const a = row.addresses;
      return searchVectorText010({
        subject: row.subject,
        from: a.from ?? [],
        to: [...(a.to ?? []), ...(a.cc ?? [])],
        body: row.body_text,
      });
    });
    await sql`
      update message_contents c set search_vector = v.vector::tsvector
      from unnest(${rows.map((r) => r.id)}::bigint[], ${vectors}::text[]) as v(id, vector)
      where c.message_id = v.id`.execute(db);
    after = Number(rows[rows.length - 1]!.id);
  }
  await sql`create index message_contents_search on message_contents using gin (search_vector)
    with (gin_pending_list_limit = 256)`.execute(db);
}
