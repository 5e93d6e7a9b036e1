import { sql, type Kysely } from 'kysely';
import { searchVectorSql007 } from './007-search-vector.js';

/**
 * Search: the vector gets field weights (subject A, sender B, recipients C, body D) and folded
 * words (frozen in 007-search-vector.ts), so rows stored before are rebuilt the same way; and an index
 * for lists that span folders (search in all folders, labels), newest first within the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index messages_account_page on messages (account_id, received_at desc, id desc)`.execute(
    db,
  );
  // Rebuilt in JavaScript because the folding is defined there; in batches to bound memory.
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
    for (const row of rows) {
      const a = row.addresses;
      const vector = searchVectorSql007({
        subject: row.subject,
        from: a.from ?? [],
        to: [...(a.to ?? []), ...(a.cc ?? [])],
        body: row.body_text,
      });
      await sql`update message_contents set search_vector = ${vector} where message_id = ${row.id}`.execute(
        db,
      );
    }
    after = Number(rows[rows.length - 1]!.id);
  }
}
