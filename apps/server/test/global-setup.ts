import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from '../src/core/db/index.js';
import { pgliteExtensions } from '../src/core/db/pglite-open.js';
import { PGlite } from '@electric-sql/pglite';

/**
 * A new PGlite costs seconds; migrate one once and let every test file load a copy of its
 * data folder. With DATABASE_URL set, each test file makes its own PostgreSQL database instead.
 */
export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const pglite = await PGlite.create({ extensions: pgliteExtensions });
  const db = await openDatabase({ kind: 'pglite-instance', pglite });
  await migrate(db);
  const dump = await pglite.dumpDataDir('none');
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-template-')), 'template.tar');
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await db.destroy();
  process.env.MAILROOM_TEST_TEMPLATE = file;
  return async () => fs.rm(path.dirname(file), { recursive: true, force: true });
}
