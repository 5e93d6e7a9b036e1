/**
 * Run by pglite-durability.test.ts under strace: opens an embedded database the way the server does,
 * commits three rows and runs a checkpoint, and after each step fsyncs a marker file, so that the
 * trace shows which syncs each step did before it returned.
 * Arguments: data folder, marker file, `on` or `off` (PGLITE_FSYNC).
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { openDatabase } from '../src/core/db/index.js';

const [dataDir, markerPath, mode] = process.argv.slice(2) as [string, string, 'on' | 'off'];
const db = await openDatabase({ kind: 'pglite', dataDir, fsync: mode === 'on' });
await sql`create table kept (v int)`.execute(db);
const { rows } = await sql<{ file: string }>`select pg_relation_filepath('kept') as file`.execute(db);
const marker = fs.openSync(markerPath, 'w');
fs.fsyncSync(marker); // opened
for (let i = 0; i < 3; i++) {
  await sql`insert into kept values (${i})`.execute(db);
  fs.fsyncSync(marker); // committed
}
await sql`checkpoint`.execute(db);
fs.fsyncSync(marker); // checkpoint done
fs.closeSync(marker);
await db.destroy();
process.stdout.write(JSON.stringify({ table: rows[0]!.file }));
