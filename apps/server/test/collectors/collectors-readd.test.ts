import { afterAll, describe, expect, it } from 'vitest';
import { startDovecot } from '../../../../test-support/dovecot.js';
import { mailUser } from '../_actions.js';
import { fillFolder, importDeps, importedMessages, syncNow } from '../_collectors.js';
import { createTestApp } from '../_util.js';
import { api, apiRequest } from '../_client.js';

/**
 * A collector deleted with "keep the mail" and added again (issue 28 item 19): the kept folders and the record of
 * what was copied are taken up again, so nothing is stored twice, and only mail that is new on the server comes in.
 */
const dovecot = await startDovecot({ users: [{ user: 'vika@example.test', password: 'vika-secret' }] });
afterAll(() => dovecot.stop());

const ctx = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', AUTH_RATE_LIMIT: '10000' } });
const { db } = ctx;
const server = { host: '127.0.0.1', port: dovecot.port, security: 'none' as const };

/** Per local folder: how many messages, and how many of them unread. */
async function counts(accountId: number, base: string) {
  const out: Record<string, { all: number; unread: number }> = {};
  for (const m of await importedMessages(db, accountId, base)) {
    const entry = (out[m.folder.slice(base.length + 1)] ??= { all: 0, unread: 0 });
    entry.all++;
    if (!m.seen) entry.unread++;
  }
  return out;
}

describe('adding a collector again after deleting it with its mail kept', () => {
  it('reuses the kept folders and the record of what was copied: nothing is stored twice', async () => {
    const remote = await dovecot.client('vika@example.test');
    await remote.mailboxCreate('Archive');
    await fillFolder(remote, 'INBOX', 'Inbox', 14);
    await fillFolder(remote, 'Archive', 'Archive', 3);

    const vika = await mailUser(ctx, 'Vika Orlova');
    const deps = await importDeps(db, { passwordSecret: ctx.secrets.collectorPasswordSecret });
    const body = { email: 'vika@example.test', password: 'vika-secret', ...server };

    const first = await api(vika.browser, 'createCollector', { body: body });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const base = first.body.collector.folder_name as string;
    await syncNow(deps, first.body.collector.id);
    const imported = await counts(vika.accountId, base);
    // Every third message of the pattern is \Seen remotely.
    expect(imported).toEqual({ INBOX: { all: 14, unread: 10 }, Archive: { all: 3, unread: 2 } });
    const folderIds = await db
      .selectFrom('folders')
      .select(['id', 'name'])
      .where('account_id', '=', vika.accountId)
      .where('name', 'like', `${base}%`)
      .orderBy('name')
      .execute();

    const deleted = await apiRequest(vika.browser, 'deleteCollector', {
      params: { id: first.body.collector.id },
      query: { keep_mail: 'true' },
    });
    expect(deleted.statusCode).toBe(200);

    const again = await api(vika.browser, 'createCollector', { body: body });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.collector.folder_name).toBe(base);
    const row = await syncNow(deps, again.body.collector.id);
    expect(await counts(vika.accountId, base)).toEqual(imported);
    // What was there already counts as imported: the status says 17 of 17, not 0 of 17 nor 34.
    expect(row).toMatchObject({ state: 'idle', messages_done: 17, messages_total: 17, last_error: null });
    // The same local folders, not new ones beside them.
    expect(
      await db
        .selectFrom('folders')
        .select(['id', 'name'])
        .where('account_id', '=', vika.accountId)
        .where('name', 'like', `${base}%`)
        .orderBy('name')
        .execute(),
    ).toEqual(folderIds);

    // Mail that arrives on the server afterwards still comes in, once.
    await fillFolder(remote, 'INBOX', 'Inbox', 2, 15);
    await remote.logout();
    const later = await syncNow(deps, again.body.collector.id);
    expect(await counts(vika.accountId, base)).toEqual({
      INBOX: { all: 16, unread: 11 },
      Archive: { all: 3, unread: 2 },
    });
    expect(later).toMatchObject({ messages_done: 19, messages_total: 19 });
  });
});
