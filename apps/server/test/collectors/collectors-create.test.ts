import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { startDovecot } from '../../../../test-support/dovecot.js';
import { freePort } from '../../../../test-support/ports.js';
import { createCollector, type CollectorsDeps } from '../../src/collectors/collectors.service.js';
import { openCollectorPassword } from '../../src/collectors/index.js';
import { AddressPolicy, openDnsResolver } from '../../src/core/net/index.js';
import type { DomainError } from '../../src/core/errors.js';
import { ensureCollectorFolderPath } from '../../src/mailbox/index.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import { mailUser, type MailUser } from '../_actions.js';
import { startTestDns } from '../_dns.js';
import { Browser, cleanup, createTestApp } from '../_util.js';
import { api, apiRequest, apiPath } from '../_client.js';

/**
 * Collectors' create, list, update and delete (issue 18) over the API, signing in to a real Dovecot on loopback; the
 * app's DNS is the test's own server and its outbound policy allows 127.0.0.1 only.
 */
const dns = await startTestDns();
const { zone } = dns;
const dovecot = await startDovecot({
  users: [
    { user: 'ivan@example.test', password: 'ivan-secret' },
    { user: 'olga@example.test', password: 'olga-secret' },
    { user: 'petr@example.test', password: 'petr-secret' },
    { user: 'anna@example.test', password: 'anna-secret' },
    { user: 'boris@example.test', password: 'boris-secret' },
    { user: 'vera@srv.example.test', password: 'vera-secret' },
  ],
  tls: true,
});
afterAll(() => dovecot.stop());
zone.set('imap.example.test', 'A', ['127.0.0.1']);
zone.set('inside.example.test', 'A', ['127.0.0.2']);
// The big providers' servers, pointed at the loopback Dovecot: a refused password there names the provider.
zone.set('imap.gmail.com', 'A', ['127.0.0.1']);
zone.set('outlook.office365.com', 'A', ['127.0.0.1']);

const ctx = await createTestApp({
  env: {
    DNS_SERVERS: dns.server,
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
    MAX_COLLECTORS: '3',
    AUTH_RATE_LIMIT: '10000',
  },
});
const { db } = ctx;
const events: { accountId: number; event: MailEvent }[] = [];

const dovecotServer = { host: 'imap.example.test', port: dovecot.port, security: 'none' as const };

async function create(user: MailUser, body: Record<string, unknown>) {
  return api(user.browser, 'createCollector', { body });
}
async function put(user: MailUser, id: number, body: Record<string, unknown>) {
  return api(user.browser, 'updateCollector', { params: { id }, body });
}
async function remove(user: MailUser, id: number, keepMail?: boolean) {
  return api(user.browser, 'deleteCollector', { params: { id }, query: { keep_mail: keepMail } });
}

async function collectorRows(accountId: number) {
  return db.selectFrom('collectors').selectAll().where('account_id', '=', accountId).execute();
}

/** A loopback IMAP server of the test's that signs anyone in and has no INBOX (Dovecot always has one). */
async function inboxlessServer(): Promise<number> {
  const port = await freePort();
  const server = net.createServer((socket) => {
    socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] no inbox here\r\n');
    let buffer = '';
    socket.on('data', (data) => {
      buffer += data.toString();
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const [tag, command = ''] = line.split(' ');
        if (/^CAPABILITY$/i.test(command))
          socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n${tag} OK done\r\n`);
        else if (/^(SELECT|EXAMINE)$/i.test(command))
          socket.write(`${tag} NO [NONEXISTENT] Mailbox doesn't exist\r\n`);
        else if (/^LOGOUT$/i.test(command)) socket.end(`* BYE\r\n${tag} OK bye\r\n`);
        else socket.write(`${tag} OK done\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanup(() => new Promise((resolve) => server.close(resolve)));
  return port;
}

describe('creating a collector', () => {
  it('signs in first, seals the password, makes the collector folder, and never returns the password', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const unsubscribe = ctx.events.subscribe(ann.accountId, (event) =>
      events.push({ accountId: ann.accountId, event }),
    );
    cleanup(unsubscribe);
    const created = await create(ann, {
      email: 'Ivan@Example.test',
      password: 'ivan-secret',
      ...dovecotServer,
      apply_filters: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.collector).toMatchObject({
      email: 'ivan@example.test',
      login: 'ivan@example.test',
      folder_name: 'INBOX.import.ivan@example\u2024test',
      server: dovecotServer,
      enabled: true,
      apply_filters: true,
      state: 'importing',
      last_error: null,
    });
    expect(JSON.stringify(created.body)).not.toContain('ivan-secret');
    const listed = await api(ann.browser, 'collectors');
    expect(listed.body.collectors).toEqual([created.body.collector]);
    expect(JSON.stringify(listed.body)).not.toContain('ivan-secret');

    const [row] = await collectorRows(ann.accountId);
    expect(row!.password_sealed).not.toContain('ivan-secret');
    expect(openCollectorPassword(ctx.secrets.collectorPasswordSecret, row!.password_sealed)).toBe(
      'ivan-secret',
    );

    const folders = await api(ann.browser, 'folders');
    const collectorFolder = (folders.body.folders as { name: string; isCollector: boolean }[]).find(
      (f) => f.name === created.body.collector.folder_name,
    );
    expect(collectorFolder, JSON.stringify(folders.body)).toMatchObject({ isCollector: true });
    expect(events.filter((e) => e.accountId === ann.accountId).map((e) => e.event)).toEqual(
      expect.arrayContaining([
        { event: 'updateAccount', part: 'collectors' },
        { event: 'updateMailboxList' },
      ]),
    );
  });

  it('answers collector_invalid_password for a wrong password, and stores nothing', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const refused = await create(ann, { email: 'olga@example.test', password: 'wrong', ...dovecotServer });
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('collector_invalid_password');
    expect(await collectorRows(ann.accountId)).toEqual([]);
  });

  it('names the provider that needs an app password, or OAuth, when its sign-in refuses the password', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const gmail = await create(ann, {
      email: 'olga@example.test',
      password: 'wrong',
      host: 'imap.gmail.com',
      port: dovecot.port,
      security: 'none',
    });
    expect(gmail.code).toBe('collector_app_password_required');
    expect(gmail.body.error.message).toContain('Gmail');
    const outlook = await create(ann, {
      email: 'olga@example.test',
      password: 'wrong',
      host: 'outlook.office365.com',
      port: dovecot.port,
      security: 'none',
    });
    expect(outlook.code).toBe('collector_oauth_required');
    expect(outlook.body.error.message).toContain('Outlook');
    // The right password at such a provider's server is fine.
    const right = await create(ann, {
      email: 'olga@example.test',
      password: 'olga-secret',
      host: 'imap.gmail.com',
      port: dovecot.port,
      security: 'none',
    });
    expect(right.status).toBe(200);
  });

  it('answers cannot_connect_to_mail_server, collector_tls_failed and collector_server_forbidden', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const body = { email: 'olga@example.test', password: 'olga-secret' };
    const closed = await create(ann, {
      ...body,
      host: 'imap.example.test',
      port: await freePort(),
      security: 'none',
    });
    expect(closed.code).toBe('cannot_connect_to_mail_server');
    const tls = await create(ann, {
      ...body,
      host: 'imap.example.test',
      port: dovecot.tlsPort,
      security: 'tls',
    });
    expect(tls.code).toBe('collector_tls_failed');
    const starttls = await create(ann, {
      ...body,
      host: 'imap.example.test',
      port: dovecot.port,
      security: 'starttls',
    });
    expect(starttls.code).toBe('collector_tls_failed');
    for (const host of ['inside.example.test', '127.0.0.2']) {
      const forbidden = await create(ann, { ...body, host, port: dovecot.port, security: 'none' });
      expect(forbidden.code, host).toBe('collector_server_forbidden');
    }
    expect(await collectorRows(ann.accountId)).toEqual([]);
  });

  it('answers cant_fetch_inbox for a mailbox without an INBOX', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const port = await inboxlessServer();
    const refused = await create(ann, {
      email: 'olga@example.test',
      password: 'anything',
      host: 'imap.example.test',
      port,
      security: 'none',
    });
    expect(refused.code).toBe('cant_fetch_inbox');
    expect(await collectorRows(ann.accountId)).toEqual([]);
  });

  it('answers invalid_port, collector_invalid_email and invalid_domain_for_mail_server for bad input', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    for (const port of [0, 65536, -1]) {
      const refused = await create(ann, {
        email: 'olga@example.test',
        password: 'x',
        host: 'imap.example.test',
        port,
      });
      expect(refused.code, String(port)).toBe('invalid_port');
    }
    for (const email of ['olga', 'olga@', 'olga@localhost']) {
      const refused = await create(ann, { email, password: 'x', ...dovecotServer });
      expect(refused.code, email).toBe('collector_invalid_email');
      expect((await api(ann.browser, 'findImap', { body: { email } })).code).toBe('collector_invalid_email');
    }
    const badHost = await create(ann, { email: 'olga@example.test', password: 'x', host: 'no such host!' });
    expect(badHost.code).toBe('invalid_domain_for_mail_server');
  });

  it('refuses the same address twice in one account, and more than MAX_COLLECTORS', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Ray');
    expect(
      (await create(ann, { email: 'ivan@example.test', password: 'ivan-secret', ...dovecotServer })).status,
    ).toBe(200);
    const again = await create(ann, {
      email: 'IVAN@example.test',
      password: 'ivan-secret',
      ...dovecotServer,
    });
    expect(again.code).toBe('err_provider_already_exists');
    // Another account may collect the same address.
    expect(
      (await create(bob, { email: 'ivan@example.test', password: 'ivan-secret', ...dovecotServer })).status,
    ).toBe(200);
    for (const user of ['olga', 'petr'])
      expect(
        (await create(ann, { email: `${user}@example.test`, password: `${user}-secret`, ...dovecotServer }))
          .status,
      ).toBe(200);
    const beyond = await create(ann, {
      email: 'anna@example.test',
      password: 'anna-secret',
      ...dovecotServer,
    });
    expect(beyond.code).toBe('max_count_collectors');
    expect(await collectorRows(ann.accountId)).toHaveLength(3);
  });

  it('finds the server by SRV when no host is given (find_imap and create)', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    zone.set('_imaps._tcp.srv.example.test', 'SRV', [`0 0 ${dovecot.tlsPort} imap.test`]);
    zone.set('imap.test', 'A', ['127.0.0.1']);
    const found = await api(ann.browser, 'findImap', {
      body: {
        email: 'vera@srv.example.test',
      },
    });
    expect(found.body).toEqual({
      server: { host: 'imap.test', port: dovecot.tlsPort, security: 'tls' },
      source: 'srv',
      provider: null,
    });
    // Dovecot's certificate is self-signed for imap.test: untrusted over the API…
    const untrusted = await create(ann, { email: 'vera@srv.example.test', password: 'vera-secret' });
    expect(untrusted.code).toBe('collector_tls_failed');
    // …and trusted by a service given it as a CA of its own, where the discovered server signs in with TLS.
    const deps: CollectorsDeps = {
      db,
      events: ctx.events,
      log: pino({ level: 'silent' }),
      dns: openDnsResolver([dns.server]),
      policy: new AddressPolicy(['127.0.0.1']),
      passwordSecret: ctx.secrets.collectorPasswordSecret,
      maxCollectors: 3,
      ca: await fs.readFile(path.join(dovecot.dir, 'cert.pem')),
    };
    const collector = await createCollector(deps, ann.accountId, {
      email: 'vera@srv.example.test',
      password: 'vera-secret',
    });
    expect(collector.server).toEqual({ host: 'imap.test', port: dovecot.tlsPort, security: 'tls' });
    const wrong = await createCollector(deps, ann.accountId, {
      email: 'vera@srv.example.test',
      password: 'x',
    }).catch((e: unknown) => e);
    expect((wrong as DomainError).code).toBe('err_provider_already_exists');
  });
});

describe('changing and deleting collectors', () => {
  async function withCollector(email = 'ivan@example.test', password = 'ivan-secret') {
    const ann = await mailUser(ctx, 'Ann Lee');
    const created = await create(ann, { email, password, ...dovecotServer });
    expect(created.status).toBe(200);
    return { ann, collector: created.body.collector as { id: number; folder_name: string } };
  }

  it('another account’s collector is collector_not_found on every route, and is not listed', async () => {
    const { ann, collector } = await withCollector();
    const eve = await mailUser(ctx, 'Eve Stone');
    expect((await api(eve.browser, 'collectors')).body.collectors).toEqual([]);
    for (const response of [
      await put(eve, collector.id, { enabled: false }),
      await put(eve, collector.id, { password: 'ivan-secret' }),
      await remove(eve, collector.id, false),
      await remove(eve, collector.id, true),
      await put(eve, 999_999, { enabled: false }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.code).toBe('collector_not_found');
    }
    // Nothing happened to Ann's.
    const [row] = await collectorRows(ann.accountId);
    expect(row).toMatchObject({ enabled: true });
    expect(
      await db
        .selectFrom('folders')
        .select('id')
        .where('account_id', '=', ann.accountId)
        .where('name', '=', collector.folder_name)
        .execute(),
    ).toHaveLength(1);
  });

  it('a session held to one address may not use collectors (forbidden)', async () => {
    const { ann } = await withCollector();
    await grantPasswordAccess(db, ann.accountId, ann.email, 'desk-password');
    const desk = new Browser(ctx.app);
    const login = await apiRequest(desk, 'passwordSignIn', {
      body: { email: ann.email, password: 'desk-password' },
    });
    expect(login.statusCode).toBe(200);
    for (const [method, url, json] of [
      ['GET', apiPath('collectors'), undefined],
      [
        'POST',
        apiPath('collectors'),
        { email: 'olga@example.test', password: 'olga-secret', ...dovecotServer },
      ],
      ['POST', apiPath('findImap'), { email: 'olga@gmail.com' }],
    ] as const) {
      const response = await desk.request(method, url, json === undefined ? {} : { json });
      expect(response.json().error.meta.i8s, `${method} ${url}`).toBe('forbidden');
    }
  });

  it('disables and enables; enabling lifts a stop after refused passwords and makes a pass due now', async () => {
    const { ann, collector } = await withCollector();
    const disabled = await put(ann, collector.id, { enabled: false });
    expect(disabled.body.collector).toMatchObject({ enabled: false, state: 'disabled', next_sync_at: null });
    // The import engine stopped it after refusals.
    await db
      .updateTable('collectors')
      .set({ enabled: true, state: 'stopped', auth_failures: 5, last_error: 'collector_invalid_password' })
      .where('id', '=', collector.id)
      .execute();
    expect((await api(ann.browser, 'collectors')).body.collectors[0]).toMatchObject({
      state: 'stopped',
      next_sync_at: null,
    });
    const before = Date.now();
    const enabled = await put(ann, collector.id, { enabled: true, apply_filters: true });
    expect(enabled.body.collector).toMatchObject({
      enabled: true,
      state: 'idle',
      apply_filters: true,
      last_error: null,
    });
    expect(Date.parse(enabled.body.collector.next_sync_at)).toBeGreaterThanOrEqual(before - 1000);
    const [row] = await collectorRows(ann.accountId);
    expect(row!.auth_failures).toBe(0);
  });

  it('takes a new password only when it signs in', async () => {
    const { ann, collector } = await withCollector('boris@example.test', 'boris-secret');
    const wrong = await put(ann, collector.id, { password: 'not-it' });
    expect(wrong.code).toBe('collector_invalid_password');
    const [kept] = await collectorRows(ann.accountId);
    expect(openCollectorPassword(ctx.secrets.collectorPasswordSecret, kept!.password_sealed)).toBe(
      'boris-secret',
    );
    await dovecot.setPassword('boris@example.test', 'boris-new');
    const changed = await put(ann, collector.id, { password: 'boris-new' });
    expect(changed.status).toBe(200);
    expect(JSON.stringify(changed.body)).not.toContain('boris-new');
    const [row] = await collectorRows(ann.accountId);
    expect(openCollectorPassword(ctx.secrets.collectorPasswordSecret, row!.password_sealed)).toBe(
      'boris-new',
    );
  });

  it('deletes keeping the imported folders and mail (keep_mail=true)', async () => {
    const { ann, collector } = await withCollector();
    // A remote folder imported below the collector's, as the import engine makes it.
    const inner = await ensureCollectorFolderPath(db, ann.accountId, `${collector.folder_name}.Archive`);
    await ann.deliver({ subject: 'Imported' }, { folderId: inner.id });
    const deleted = await remove(ann, collector.id, true);
    expect(deleted.body).toEqual({ ok: true });
    expect(await collectorRows(ann.accountId)).toEqual([]);
    const folders = await db
      .selectFrom('folders')
      .select('name')
      .where('account_id', '=', ann.accountId)
      .where('name', 'like', 'INBOX.import.%')
      .orderBy('name')
      .execute();
    expect(folders.map((f) => f.name)).toEqual([collector.folder_name, `${collector.folder_name}.Archive`]);
    expect(
      await db.selectFrom('messages').select('id').where('folder_id', '=', inner.id).execute(),
    ).toHaveLength(1);
  });

  it('deletes removing the imported folders and their mail, giving the quota back (keep_mail=false)', async () => {
    const { ann, collector } = await withCollector();
    const quota = async () =>
      (
        await db
          .selectFrom('accounts')
          .select('quota_used_bytes')
          .where('id', '=', ann.accountId)
          .executeTakeFirstOrThrow()
      ).quota_used_bytes;
    const before = await quota();
    // A remote folder imported below the collector's, as the import engine makes it.
    const inner = await ensureCollectorFolderPath(db, ann.accountId, `${collector.folder_name}.Archive`);
    await ann.deliver({ subject: 'Imported', text: 'x'.repeat(5000) }, { folderId: inner.id });
    await ann.deliver({ subject: 'Kept in the Inbox' });
    expect(await quota()).toBeGreaterThan(before);
    const deleted = await remove(ann, collector.id, false);
    expect(deleted.body).toEqual({ ok: true });
    const left = await db
      .selectFrom('folders')
      .select('name')
      .where('account_id', '=', ann.accountId)
      .where('name', 'like', 'INBOX.import.%')
      .execute();
    expect(left).toEqual([]);
    expect(await db.selectFrom('messages').select('id').where('folder_id', '=', inner.id).execute()).toEqual(
      [],
    );
    // The Inbox's message stays, and so does its share of the quota.
    const inbox = await db
      .selectFrom('messages')
      .select('id')
      .where('folder_id', '=', ann.folders.inbox)
      .execute();
    expect(inbox).toHaveLength(1);
    expect(await quota()).toBeLessThan(before + 5000);
    expect(await quota()).toBeGreaterThan(before);
  });
});

describe('pace', () => {
  it('holds find_imap, create and a new password to AUTH_RATE_LIMIT a minute (no scanner, no password relay)', async () => {
    const slow = await createTestApp({ db, env: { DNS_SERVERS: dns.server, AUTH_RATE_LIMIT: '2' } });
    const ann = await mailUser(slow, 'Ann Lee');
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await api(ann.browser, 'findImap', { body: { email: 'ivan@gmail.com' } }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.code).toBe('too_many_requests');
  });
});
