import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, openDatabase } from '../src/core/db/index.js';
import { pgliteExtensions } from '../src/core/db/pglite-open.js';
import { PGlite } from '@electric-sql/pglite';

/**
 * A new PGlite costs seconds; migrate one once and let every test file load a copy of its
 * data folder. With DATABASE_URL set, each test file makes its own PostgreSQL database instead.
 *
 * For the slow tier, also a migrated embedded cluster in a data folder, made as a server makes one on its first start
 * (pglite-initdb in a child, then the migrations): a server process or a CLI under test starts on a copy of it
 * (_server.ts, `pgliteFolder`) instead of running initdb and the 40 migrations again, 10-25 s each on a loaded 2-core
 * machine where the copy takes half a second. The tests that are about creating a cluster still create their own. It
 * is made while the first files run (`pgliteFolder` waits for it), and on PostgreSQL too: the CLI keeps to PGlite.
 */
export default async function setup(project: TestProject) {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-template-'));
  let folderMade: Promise<void> = Promise.resolve();
  if (project.name === 'server-slow') {
    const folder = path.join(root, 'pglite');
    const building = path.join(root, 'building', 'pglite');
    folderMade = (async () => {
      const db = await openDatabase({ kind: 'pglite', dataDir: building });
      await migrate(db);
      await db.destroy();
      // Whole or not at all: the tests wait for this name.
      await fs.rename(building, folder);
    })().catch((err: unknown) =>
      fs.writeFile(
        path.join(root, 'failed'),
        err instanceof Error ? (err.stack ?? err.message) : String(err),
      ),
    );
    process.env.MAILROOM_TEST_PGLITE_FOLDER = folder;
  }
  if (!process.env.DATABASE_URL) {
    const file = path.join(root, 'template.tar');
    const pglite = await PGlite.create({ extensions: pgliteExtensions });
    const db = await openDatabase({ kind: 'pglite-instance', pglite });
    await migrate(db);
    const dump = await pglite.dumpDataDir('none');
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    await db.destroy();
    process.env.MAILROOM_TEST_TEMPLATE = file;
  }
  return async () => {
    await folderMade;
    await fs.rm(root, { recursive: true, force: true });
  };
}
