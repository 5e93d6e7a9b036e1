/**
 * Run by pglite-durability.test.ts under strace: opens an embedded database the way the server does (the group
 * commit on), then commits many rows at once while checkpoints write the data pages they dirtied, so that data pages
 * are written while the log's syncs are deferred or running. Argument: data folder.
 */
import { sql } from 'kysely';
import { openDatabase } from '../src/core/db/index.js';

const [dataDir] = process.argv.slice(2) as [string];
const db = await openDatabase({ kind: 'pglite', dataDir });
await sql`create table kept (v int, body text)`.execute(db);
const body = 'x'.repeat(3000);
for (let round = 0; round < 5; round++) {
  await Promise.all([
    ...Array.from({ length: 40 }, (_, i) =>
      sql`insert into kept values (${round * 100 + i}, ${body})`.execute(db),
    ),
    sql`checkpoint`.execute(db),
    ...Array.from({ length: 40 }, (_, i) =>
      sql`insert into kept values (${round * 100 + 50 + i}, ${body})`.execute(db),
    ),
  ]);
}
await db.destroy();
