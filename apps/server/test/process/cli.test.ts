import { describe, expect, it } from 'vitest';
import { createTestDb, testConfig } from '../_util.js';
import { mailroom } from '../_cli.js';
import { pgliteFolder } from '../_server.js';
import { startAdminSocket } from '../../src/admin/admin-socket.js';
import { verifyIdpUser } from '../../src/auth/dev-idp/idp-users.js';
import { ensureAccount } from '../../src/accounts/index.js';
import {
  createInvoice,
  invoiceLedger,
  InvoicePurposes,
  SandboxWalletGateway,
} from '../../src/wallet/index.js';

// The command starts a process that opens PGlite and runs every migration: ~25 s alone on a busy 2-core machine.
describe('the mailroom command', { timeout: 120_000 }, () => {
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
        // What the embedded provider's sign-up page offers first, so the user may try aliases.
        passportLevel: 'formal',
      });
      const folders = await db
        .selectFrom('folders')
        .innerJoin('accounts', 'accounts.id', 'folders.account_id')
        .select('folders.name')
        .where('accounts.member_id', '=', '123456789012')
        .execute();
      expect(folders).toHaveLength(7);

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
    // The member ID is checked with the database open: a migrated one, so that its creation is not paid again here.
    await pgliteFolder(config.dataDir);
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

  it('pays and rejects invoices of the sandbox wallet, through the running server', async () => {
    const db = await createTestDb();
    const config = await testConfig();
    const paid: number[] = [];
    const invoicePurposes = new InvoicePurposes().register('thing', {
      async onPaid(_trx, invoice) {
        paid.push(invoice.id);
      },
      async onFailed() {},
    });
    const admin = await startAdminSocket(db, config, invoicePurposes);
    try {
      const { account } = await ensureAccount(db, {
        memberId: '123456789013',
        name: 'Ann',
        mailDomain: 'mailroom.test',
      });
      const deps = { db, wallet: new SandboxWalletGateway(db, config.publicUrl), invoicePurposes };
      const issue = (subjectId: number) =>
        createInvoice(deps, {
          accountId: account.id,
          memberId: account.member_id,
          purpose: 'thing',
          subjectId,
          amount: '1.00',
          currency: 'USD',
          description: 'x',
        });
      const [a, b] = [await issue(1), await issue(2)];
      const env = { DATA_DIR: config.dataDir };
      const { stdout } = await mailroom(['wallet', 'pay', a.wallet_invoice_id], env);
      expect(stdout.trim()).toBe(`invoice ${a.wallet_invoice_id}: paid`);
      expect((await mailroom(['wallet', 'reject', b.wallet_invoice_id], env)).stdout).toContain(': rejected');
      expect((await invoiceLedger(db, a.id)).map((r) => [r.to_status, r.source])).toEqual([
        ['paid', 'sandbox'],
      ]);
      expect(paid).toEqual([a.id]);
      const unknown = await mailroom(['wallet', 'pay', 'sbx_unknown'], env).catch(
        (err: { code: number; stderr: string }) => err,
      );
      expect(unknown).toMatchObject({ code: 1 });
      expect((unknown as { stderr: string }).stderr).toContain('not_found');
    } finally {
      await admin.close();
    }
  }, 120_000);
});
