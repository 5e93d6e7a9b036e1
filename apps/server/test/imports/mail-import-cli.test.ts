import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDb, testConfig } from '../_util.js';
import { mailroom } from '../_cli.js';
import { pgliteFolder } from '../_server.js';
import { startAdminSocket } from '../../src/admin/admin-socket.js';
import { ensureAccount } from '../../src/accounts/index.js';
import { openBlobStore } from '../../src/core/blobs/index.js';
import { InProcessEventBus } from '../../src/core/events/index.js';
import { runMailImport } from '../../src/imports/index.js';
import { mbox } from '../_imports.js';
import pino from 'pino';

const messages = Array.from({ length: 3 }, (_, i) =>
  Buffer.from(`Message-ID: <cli${i}@test>\r\nSubject: cli ${i}\r\nFrom: a@example.org\r\n\r\nhello\r\n`),
);

describe('mailroom import', { timeout: 240_000 }, () => {
  it('imports an mbox into a member mailbox, opening the embedded database itself, and again finds it all here', async () => {
    const config = await testConfig();
    // A migrated cluster to open (cli.test.ts has the command create one on an empty folder).
    await pgliteFolder(config.dataDir);
    const { stdout: added } = await mailroom(['user', 'add', '--name', 'Im Port', '--password', 'secret'], {
      DATA_DIR: config.dataDir,
    });
    const memberId = /member ID: (\d{12})/.exec(added)![1]!;
    const file = path.join(config.dataDir, 'box.mbox');
    await fs.writeFile(file, mbox(messages));
    const { stdout } = await mailroom(['import', '--member-id', memberId, file], {
      DATA_DIR: config.dataDir,
    });
    expect(stdout).toContain('import 1 of box.mbox queued');
    expect(stdout).toMatch(/import 1 done: 3 stored, 0 already here, 0 skipped, 0 failed, of 3/);
    const again = await mailroom(['import', '--member-id', memberId, file], { DATA_DIR: config.dataDir });
    expect(again.stdout).toMatch(/import 2 done: 0 stored, 3 already here/);
  });

  it('queues the import with the running server over the admin socket; a bad file or member is refused', async () => {
    const db = await createTestDb();
    const config = await testConfig();
    const admin = await startAdminSocket(db, config);
    try {
      const { account } = await ensureAccount(db, {
        memberId: '123456789077',
        name: 'Ann',
        mailDomain: 'mailroom.test',
      });
      const file = path.join(config.dataDir, 'box.mbox');
      await fs.writeFile(file, mbox(messages));
      const { stdout } = await mailroom(['import', '--member-id', '123456789077', file], {
        DATA_DIR: config.dataDir,
      });
      expect(stdout).toContain('of box.mbox queued');
      // The server's import worker does it.
      const blobs = await openBlobStore(db, path.join(config.dataDir, 'blobs'));
      const deps = { db, blobs, events: new InProcessEventBus(), log: pino({ level: 'silent' }) };
      expect(await runMailImport(deps)).toBe(true);
      const row = await db
        .selectFrom('mail_imports')
        .selectAll()
        .where('account_id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state: 'done', stored: 3 });

      const missing = await mailroom(['import', '--member-id', '123456789077', '/nonexistent/x.mbox'], {
        DATA_DIR: config.dataDir,
      }).catch((err: { code: number; stderr: string }) => err);
      expect(missing).toMatchObject({ code: 1 });
      expect((missing as { stderr: string }).stderr).toContain('import_file_unreadable');
      const nobody = await mailroom(['import', '--member-id', '999999999999', file], {
        DATA_DIR: config.dataDir,
      }).catch((err: { code: number; stderr: string }) => err);
      expect((nobody as { stderr: string }).stderr).toContain('user_not_found');
      const usage = await mailroom(['import', file], { DATA_DIR: config.dataDir }).catch(
        (err: { code: number; stderr: string }) => err,
      );
      expect(usage).toMatchObject({ code: 2 });
    } finally {
      await admin.close();
    }
  });
});
