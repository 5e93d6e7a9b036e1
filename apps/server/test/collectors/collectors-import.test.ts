import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { startDovecot, type Dovecot } from '../../../../test-support/dovecot.js';
import { purgeMessages } from '../../src/mailbox/index.js';
import { runCollectorPass, type CollectorImportDeps } from '../../src/collectors/index.js';
import { createTestDb } from '../_util.js';
import { createAccount } from '../_mail.js';
import {
  addCollector,
  dateOf,
  fillFolder,
  flagsOf,
  importDeps,
  importedMessages,
  syncNow,
  testMessage,
} from '../_collectors.js';

/**
 * The collectors' import engine against a real Dovecot on loopback (issue 18): every folder (Russian names in
 * modified UTF-7 on the wire), 2,000 messages with their dates and flags, no duplicate on a second pass, new mail on
 * the next poll, a deleted copy not brought back, a recreated folder (new UIDVALIDITY) not copied twice, flag changes
 * through CONDSTORE, a refused password stopping the collector with a notice, and a server that dies mid-import.
 */
const db = await createTestDb();
let dovecot: Dovecot;
let deps: CollectorImportDeps;
const published: MailEvent[] = [];

beforeAll(async () => {
  dovecot = await startDovecot({
    users: [
      { user: 'ivan', password: 'ivan-pass' },
      { user: 'olga', password: 'olga-pass' },
    ],
  });
  deps = await importDeps(db);
}, 120_000);
afterAll(() => dovecot?.stop());

const folders = [
  { remote: 'INBOX', local: 'INBOX', count: 1200 },
  { remote: 'Работа', local: 'Работа', count: 500 },
  { remote: 'Работа.Отчёты', local: 'Работа.Отчёты', count: 250 },
  { remote: 'Archive 2020', local: 'Archive 2020', count: 50 },
];

describe('importing a remote mailbox', () => {
  let accountId: number;
  let collectorId: number;
  let base: string;

  beforeAll(async () => {
    const client = await dovecot.client('ivan');
    for (const f of folders) {
      if (f.remote !== 'INBOX') await client.mailboxCreate(f.remote);
      await fillFolder(client, f.remote, f.remote, f.count);
    }
    await client.logout();
    accountId = (await createAccount(db, 'Ivan Collector')).id;
    const row = await addCollector(db, accountId, dovecot, 'ivan', 'ivan-pass');
    collectorId = row.id;
    base = row.folder_name;
    deps.events.subscribe(accountId, (e) => void published.push(...(Array.isArray(e) ? e : [e])));
  }, 180_000);

  it('copies every folder, Russian names included, with the counts, dates and flags of the remote messages', async () => {
    const started = Date.now();
    const row = await syncNow(deps, collectorId);
    const seconds = (Date.now() - started) / 1000;
    expect(row).toMatchObject({
      state: 'idle',
      last_error: null,
      folders_done: 4,
      folders_total: 4,
      messages_done: 2000,
      messages_total: 2000,
      messages_skipped: 0,
      lease_owner: null,
    });
    expect(row.next_sync_at!.getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    const messages = await importedMessages(db, accountId, base);
    expect(messages).toHaveLength(2000);
    for (const f of folders) {
      const here = messages.filter((m) => m.folder === `${base}.${f.local}`);
      expect(here, f.remote).toHaveLength(f.count);
      const expected = (flag: string) =>
        Array.from({ length: f.count }, (_, k) => k + 1).filter((i) => flagsOf(i).includes(flag)).length;
      expect(here.filter((m) => m.seen)).toHaveLength(expected('\\Seen'));
      expect(here.filter((m) => m.flagged)).toHaveLength(expected('\\Flagged'));
      expect(here.filter((m) => m.answered)).toHaveLength(expected('\\Answered'));
      // The sender's date (the Date header), not the server's arrival time.
      const seventh = here.find((m) => m.subject === `${f.remote} 7`)!;
      expect(new Date(seventh.received_at).toISOString()).toBe(dateOf(7).toISOString());
    }
    // The folders are there for the sidebar, and progress went out on the socket, not once per message.
    const localFolders = await db
      .selectFrom('folders')
      .select('name')
      .where('account_id', '=', accountId)
      .execute();
    expect(localFolders.map((f) => f.name)).toEqual(
      expect.arrayContaining([base, ...folders.map((f) => `${base}.${f.local}`)]),
    );
    const progress = published.filter((e) => e.event === 'collector');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.length).toBeLessThan(seconds * 5 + 10);
    expect(progress.at(-1)).toMatchObject({
      collector: { state: 'idle', progress: { messages_done: 2000 } },
    });
    expect(published.some((e) => e.event === 'new')).toBe(true);
  }, 180_000);

  it('a second pass copies nothing again', async () => {
    const row = await syncNow(deps, collectorId);
    expect(row).toMatchObject({ state: 'idle', messages_done: 2000, last_error: null });
    expect(await importedMessages(db, accountId, base)).toHaveLength(2000);
  }, 60_000);

  it('a message appended remotely shows up on the next poll, and a flag set remotely comes over (CONDSTORE)', async () => {
    const client = await dovecot.client('ivan');
    await client.append('INBOX', testMessage('late', 1, new Date(Date.UTC(2024, 0, 2))), ['\\Seen']);
    await client.mailboxOpen('INBOX');
    // INBOX 2 was neither seen nor flagged.
    await client.messageFlagsAdd({ header: { subject: 'INBOX 2' } }, ['\\Flagged', '\\Seen']);
    await client.logout();
    await syncNow(deps, collectorId);
    const messages = await importedMessages(db, accountId, base);
    expect(messages).toHaveLength(2001);
    expect(messages.find((m) => m.subject === 'late 1')).toMatchObject({
      seen: true,
      folder: `${base}.INBOX`,
    });
    expect(messages.find((m) => m.subject === 'INBOX 2')).toMatchObject({ seen: true, flagged: true });
  }, 60_000);

  it('a copy deleted here is not brought back, even when the server renumbers the folder (new UIDVALIDITY)', async () => {
    const victims = (await importedMessages(db, accountId, base)).filter((m) =>
      ['INBOX 3', 'Archive 2020 5'].includes(m.subject),
    );
    expect(victims).toHaveLength(2);
    for (const v of victims) {
      const place = await db
        .selectFrom('messages')
        .select(['folder_id', 'uid'])
        .where('id', '=', v.id)
        .executeTakeFirstOrThrow();
      await purgeMessages(db, accountId, {
        folder_messages: [{ folder_id: place.folder_id, message_uids: [place.uid] }],
      });
    }
    // The remote Archive is deleted and made again with the same messages: Dovecot gives it a new UIDVALIDITY.
    const client = await dovecot.client('ivan');
    const before = uidValidityOf(await client.status('Archive 2020', { uidValidity: true }));
    await client.mailboxDelete('Archive 2020');
    await new Promise((r) => setTimeout(r, 1100));
    await client.mailboxCreate('Archive 2020');
    await fillFolder(client, 'Archive 2020', 'Archive 2020', 50);
    expect(uidValidityOf(await client.status('Archive 2020', { uidValidity: true }))).not.toBe(before);
    await client.logout();

    const row = await syncNow(deps, collectorId);
    expect(row).toMatchObject({ state: 'idle', last_error: null });
    const messages = await importedMessages(db, accountId, base);
    expect(messages).toHaveLength(1999);
    expect(messages.filter((m) => m.subject === 'INBOX 3' || m.subject === 'Archive 2020 5')).toHaveLength(0);
    const archive = messages.filter((m) => m.folder === `${base}.Archive 2020`);
    expect(archive).toHaveLength(49);
    expect(new Set(archive.map((m) => m.message_id)).size).toBe(49);
  }, 60_000);
});

describe('a refused password', () => {
  it('retries, then stops after the configured refusals in a row and tells the owner in the Inbox', async () => {
    const account = await createAccount(db, 'Olga Collector');
    const row = await addCollector(db, account.id, dovecot, 'olga', 'not-her-password');
    const states = [];
    for (let i = 0; i < 3; i++) {
      const after = await syncNow(deps, row.id, 1);
      states.push([after.state, after.last_error, after.auth_failures]);
    }
    expect(states).toEqual([
      ['retrying', 'collector_invalid_password', 1],
      ['retrying', 'collector_invalid_password', 2],
      ['stopped', 'collector_invalid_password', 3],
    ]);
    const stopped = await db
      .selectFrom('collectors')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stopped).toMatchObject({ state: 'stopped', next_sync_at: null, auth_failures: 3 });
    // A stopped collector is not claimed again, even when due.
    await db.updateTable('collectors').set({ next_sync_at: new Date() }).where('id', '=', row.id).execute();
    expect(await runCollectorPass(deps)).toBe(false);
    const notices = await db
      .selectFrom('messages')
      .innerJoin('folders', 'folders.id', 'messages.folder_id')
      .select(['messages.subject', 'folders.system'])
      .where('messages.account_id', '=', account.id)
      .execute();
    expect(notices).toEqual([
      { subject: 'Mail from olga@remote.test is no longer being collected', system: 'inbox' },
    ]);
  }, 60_000);
});

describe('a server that dies mid-import', () => {
  it('leaves the collector retrying with what was copied, and the next pass after its return finishes without duplicates', async () => {
    const server = await startDovecot({ users: [{ user: 'petr', password: 'petr-pass' }] });
    try {
      const client = await server.client('petr');
      await fillFolder(client, 'INBOX', 'petr', 300);
      await client.logout();
      const account = await createAccount(db, 'Petr Collector');
      const row = await addCollector(db, account.id, server, 'petr', 'petr-pass');
      let batches = 0;
      const dying = {
        ...deps,
        batchMessages: 20,
        afterBatch: async () => {
          if (++batches === 3) await server.kill();
        },
      };
      const failed = await syncNow(dying, row.id, 1);
      expect(failed.state).toBe('retrying');
      expect(failed.last_error).toMatch(/cannot_connect_to_mail_server|internal_imap_error/);
      expect(failed.failures).toBe(1);
      const partial = await importedMessages(db, account.id, row.folder_name);
      expect(partial.length).toBeGreaterThanOrEqual(60);
      expect(partial.length).toBeLessThan(300);

      await server.start();
      const resumed = await syncNow({ ...deps, batchMessages: 20 }, row.id);
      expect(resumed).toMatchObject({ state: 'idle', failures: 0, last_error: null, messages_done: 300 });
      const all = await importedMessages(db, account.id, row.folder_name);
      expect(all).toHaveLength(300);
      expect(new Set(all.map((m) => m.message_id)).size).toBe(300);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

/** The UIDVALIDITY a STATUS answered (imapflow answers false when the command failed). */
function uidValidityOf(status: false | { uidValidity?: bigint }): bigint | undefined {
  if (!status) throw new Error('STATUS failed');
  return status.uidValidity;
}
