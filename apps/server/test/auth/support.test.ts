import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startAdminSocket } from '../../src/admin/admin-socket.js';
import type { Browser } from '../_util.js';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { ensureAccount } from '../../src/accounts/index.js';
import { systemFolder } from '../../src/mailbox/index.js';
import { apiPath } from '../_client.js';

// The support desk is a local mailbox, so the requests are delivered at once and can be read back.
const DESK = '500000000001@mailroom.test';
const ctx = await createTestApp({ env: { AUTH_RATE_LIMIT: '10000', SUPPORT_EMAIL: DESK } });
const { db } = ctx;
const { account: desk } = await ensureAccount(db, {
  memberId: '500000000001',
  name: 'Support desk',
  mailDomain: 'mailroom.test',
});

async function json(browser: Browser, method: 'GET' | 'POST', url: string, body?: unknown) {
  const response = await browser.request(method, url, body === undefined ? {} : { json: body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.statusCode, body: response.json() as any };
}

/** What reached the desk's Inbox from `from`: subject, sender and text. */
async function deskMail(from: string) {
  const inbox = await systemFolder(db, desk.id, 'inbox');
  return db
    .selectFrom('messages as m')
    .innerJoin('message_contents as c', 'c.message_id', 'm.id')
    .select(['m.subject', 'm.from_email', 'c.body_text'])
    .where('m.account_id', '=', desk.id)
    .where('m.folder_id', '=', inbox.id)
    .where('m.from_email', '=', from)
    .orderBy('m.id')
    .execute();
}

async function memberIdOf(user: MailUser): Promise<string> {
  return (
    await db
      .selectFrom('accounts')
      .select('member_id')
      .where('id', '=', user.accountId)
      .executeTakeFirstOrThrow()
  ).member_id;
}

describe('support requests', () => {
  it('are delivered as mail From the primary address, without diagnostics unless agreed', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const sent = await json(ann.browser, 'POST', apiPath('supportRequests'), {
      subject: 'Cannot find my mail',
      text: 'Where did it go?',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.request).toMatchObject({ subject: 'Cannot find my mail', diagnostics: false });
    const [mail] = await deskMail(ann.email);
    expect(mail).toMatchObject({ subject: 'Cannot find my mail', from_email: ann.email });
    expect(mail!.body_text.trim()).toBe('Where did it go?');
    // The normal sending path: a copy in the member's Sent.
    const sentCopy = await db
      .selectFrom('messages')
      .select('subject')
      .where('folder_id', '=', ann.folders.sent)
      .execute();
    expect(sentCopy).toEqual([{ subject: 'Cannot find my mail' }]);
  });

  it('with include_diagnostics carry the diagnostics shown and the browser part', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    await ann.deliver({ from: 'x@example.com', subject: 'one', text: 'hello' });
    const shown = await json(ann.browser, 'GET', apiPath('supportDiagnostics'));
    expect(shown.status).toBe(200);
    expect(shown.body.diagnostics).toMatchObject({
      account_id: String(ann.accountId),
      member_id: await memberIdOf(ann),
      messages: '1',
      folders: '7',
      quota_limit_bytes: String(1024 ** 3),
      server_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    const sent = await json(ann.browser, 'POST', apiPath('supportRequests'), {
      subject: 'Slow',
      text: 'The list is slow',
      include_diagnostics: true,
      client: { user_agent: 'Test browser 1.0', screen: '1440x900' },
    });
    expect(sent.body.request.diagnostics).toBe(true);
    const [mail] = await deskMail(ann.email);
    expect(mail!.body_text).toContain('The list is slow');
    expect(mail!.body_text).toContain(`member_id: ${await memberIdOf(ann)}`);
    expect(mail!.body_text).toContain('messages: 1');
    expect(mail!.body_text).toContain('user_agent: Test browser 1.0');
    expect(mail!.body_text).toContain('screen: 1440x900');
  });

  it('need a subject and a text; bad bodies are 400 with their code', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    for (const body of [
      { subject: '  ', text: 'x' },
      { subject: 'x', text: '' },
    ]) {
      const refused = await json(ann.browser, 'POST', apiPath('supportRequests'), body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.meta.i8s).toBe('support_message_empty');
    }
    for (const body of [
      {},
      { subject: 'x'.repeat(201), text: 'x' },
      { subject: 'x', text: 'x', include_diagnostics: 'yes' },
      { subject: 'x', text: 'x', client: { k: 5 } },
      { subject: 'x', text: 'x', client: { k: 'v'.repeat(501) } },
    ]) {
      const bad = await json(ann.browser, 'POST', apiPath('supportRequests'), body);
      expect(bad.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const header = await json(ann.browser, 'POST', apiPath('supportRequests'), {
      subject: 'a\r\nBcc: x@y.z',
      text: 'x',
    });
    expect(header.status).toBe(400);
    expect((await json(ann.browser, 'GET', apiPath('supportRequests'))).body.requests).toEqual([]);
    expect(await deskMail(ann.email)).toEqual([]);
  });

  it('are at most 10 an hour, and the history is the account\u2019s own, newest first', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    for (let i = 1; i <= 10; i++) {
      const sent = await json(ann.browser, 'POST', apiPath('supportRequests'), {
        subject: `Request ${i}`,
        text: 'x',
      });
      expect(sent.status).toBe(200);
    }
    const eleventh = await json(ann.browser, 'POST', apiPath('supportRequests'), {
      subject: 'Request 11',
      text: 'x',
    });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error.meta.i8s).toBe('too_many_requests');
    const history = (await json(ann.browser, 'GET', apiPath('supportRequests'))).body.requests;
    expect(history).toHaveLength(10);
    expect(history[0].subject).toBe('Request 10');
    expect(await deskMail(ann.email)).toHaveLength(10);
    expect((await json(bob.browser, 'GET', apiPath('supportRequests'))).body.requests).toEqual([]);
    // Bob's limit is his own.
    expect(
      (await json(bob.browser, 'POST', apiPath('supportRequests'), { subject: 'Mine', text: 'x' })).status,
    ).toBe(200);
  });
});

describe('support requests with the default SUPPORT_EMAIL', () => {
  it('are kept for the operator, bounce nowhere, and are listed by `mailroom support list`', async () => {
    // support@mailroom.test: `support` is on the alias stop list, so no mailbox here can ever receive it.
    const plain = await createTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
    expect(plain.config.supportEmail).toBe('support@mailroom.test');
    const ann = await mailUser(plain, 'Ann Lee');
    expect((await json(ann.browser, 'GET', apiPath('supportRequests'))).body).toEqual({
      requests: [],
      delivery: 'kept',
    });
    const sent = await json(ann.browser, 'POST', apiPath('supportRequests'), {
      subject: 'Lost my filters',
      text: 'They were there yesterday.\nNow they are gone.',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ request: { subject: 'Lost my filters' }, delivery: 'kept' });
    // No mail went anywhere: nothing in Sent, and no bounce notice in the Inbox.
    const mail = await plain.db
      .selectFrom('messages')
      .select(['subject', 'folder_id'])
      .where('account_id', '=', ann.accountId)
      .execute();
    expect(mail).toEqual([]);
    expect(
      await plain.db.selectFrom('outbox').select('id').where('account_id', '=', ann.accountId).execute(),
    ).toEqual([]);
    const history = (await json(ann.browser, 'GET', apiPath('supportRequests'))).body.requests;
    expect(history).toMatchObject([{ subject: 'Lost my filters' }]);

    // The operator reads it with the command, asking the running server over its admin socket.
    const admin = await startAdminSocket(plain.db, plain.config);
    try {
      const { DATABASE_URL: _omit, ...rest } = process.env;
      const cli = new URL('../../src/cli.ts', import.meta.url).pathname;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--conditions=@mailroom/source', '--import', 'tsx', cli, 'support', 'list'],
        { env: { ...rest, LOG_LEVEL: 'silent', DATA_DIR: plain.config.dataDir }, timeout: 60_000 },
      );
      expect(stdout).toContain(`from Ann Lee <${ann.email}>`);
      expect(stdout).toContain('subject: Lost my filters');
      expect(stdout).toContain('  They were there yesterday.\n  Now they are gone.');
    } finally {
      await admin.close();
    }
  }, 120_000);
});
