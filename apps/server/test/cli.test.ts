import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestDb, testConfig } from './_util.js';
import { startAdminSocket } from '../src/admin/admin-socket.js';
import { verifyIdpUser } from '../src/auth/dev-idp/idp-users.js';

const run = promisify(execFile);
const cli = new URL('../src/cli.ts', import.meta.url).pathname;

function mailroom(args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _omit, ...rest } = process.env;
  return run(process.execPath, ['--conditions=@mailroom/source', '--import', 'tsx', cli, ...args], {
    env: { ...rest, LOG_LEVEL: 'silent', ...env },
    timeout: 60_000,
  });
}

describe('the mailroom command', () => {
  it('adds a user through a running server over the admin socket', async () => {
    const db = await createTestDb();
    const config = await testConfig();
    const admin = await startAdminSocket(db, config);
    try {
      const { stdout } = await mailroom(
        ['user', 'add', '--name', 'Ann Lee', '--password', 'secret', '--member-id', '123456789012'],
        {
          DATA_DIR: config.dataDir,
        },
      );
      expect(stdout).toContain('member ID: 123456789012');
      expect(stdout).toContain('address:   123456789012@mailroom.test');
      // The user can sign in at the identity provider and already has a mailbox.
      expect(await verifyIdpUser(db, '123456789012', 'secret')).toEqual({
        memberId: '123456789012',
        name: 'Ann Lee',
      });
      const folders = await db
        .selectFrom('folders')
        .innerJoin('accounts', 'accounts.id', 'folders.account_id')
        .select('folders.name')
        .where('accounts.member_id', '=', '123456789012')
        .execute();
      expect(folders).toHaveLength(5);

      const taken = await mailroom(
        ['user', 'add', '--name', 'Bo', '--password', 'x', '--member-id', '123456789012'],
        {
          DATA_DIR: config.dataDir,
        },
      ).catch((err: { code: number; stderr: string }) => err);
      expect(taken).toMatchObject({ code: 1 });
      expect((taken as { stderr: string }).stderr).toContain('member_id_taken');
    } finally {
      await admin.close();
    }
  });

  it('opens the embedded database itself when no server runs, and prints a fresh member ID', async () => {
    const config = await testConfig();
    const { stdout } = await mailroom(['user', 'add', '--name', 'Cy Dorn', '--password', 'secret'], {
      DATA_DIR: config.dataDir,
    });
    const memberId = /member ID: (\d{12})/.exec(stdout)?.[1];
    expect(memberId).toBeDefined();
    expect(stdout).toContain(`address:   ${memberId}@mailroom.test`);
  });

  it('refuses an invalid member ID and explains the usage', async () => {
    const config = await testConfig();
    const bad = await mailroom(['user', 'add', '--name', 'X', '--password', 'y', '--member-id', '12345'], {
      DATA_DIR: config.dataDir,
    }).catch((err: { code: number; stderr: string }) => err);
    expect(bad).toMatchObject({ code: 1 });
    expect((bad as { stderr: string }).stderr).toContain('invalid_member_id');
    const usage = await mailroom(['user'], { DATA_DIR: config.dataDir }).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr).toContain('Usage: npm run mailroom');
  });
});
