import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type { DKIMVerifyResult, DNSResolver } from 'mailauth';
import { createTestApp, createTestDb } from '../_util.js';
import { mailUser } from '../_actions.js';
import { freePort } from '../../../../test-support/ports.js';
import { compose, parse, startJobs, startSink, until } from '../_sending.js';
import { claimJobs } from '../../src/core/jobs/jobs.repository.js';
import { api } from '../_client.js';

/** An app whose relay is the test's own SMTP sink; the outbox job runs as in main.ts. */
async function withRelay(
  opts: {
    port?: number;
    env?: Record<string, string>;
    reject?: NonNullable<Parameters<typeof startSink>[0]>['reject'];
  } = {},
) {
  const port = opts.port ?? (await freePort());
  const ctx = await createTestApp({
    db,
    env: {
      SMTP_RELAY_URL: `smtp://127.0.0.1:${port}`,
      OUTBOX_POLL_MS: '50',
      OUTBOX_RETRY_BASE_MS: '100',
      ...opts.env,
    },
  });
  const user = await mailUser(ctx, 'Ann Lee');
  return { ctx, user, port };
}

const db = await createTestDb();

// mailauth's main entry loads its BIMI module, whose undici needs Node 22; the DKIM verifier
// alone runs on Node 20.
const { dkimVerify } = createRequire(import.meta.url)('mailauth/lib/dkim/verify.js') as {
  dkimVerify: (raw: Buffer, opts: { resolver: DNSResolver }) => Promise<DKIMVerifyResult>;
};

async function outboxOf(accountId: number) {
  return db
    .selectFrom('outbox')
    .select(['recipient', 'status', 'attempts', 'last_error', 'local'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

describe('sending through the relay', () => {
  it('reaches the relay with the envelope of the message; Bcc is in the envelope only', async () => {
    const sink = await startSink();
    const { ctx, user } = await withRelay({ port: sink.port });
    startJobs(ctx);
    const request = compose(user.email, ['bob@example.com'], {
      subject: 'Over the wire',
      fields: {
        from: { email: user.email, name: 'Ann' },
        to: [{ email: 'bob@example.com', name: 'Bob' }],
        cc: [{ email: 'carol@example.org', name: '' }],
        bcc: [{ email: 'hidden@example.net', name: 'Hidden' }],
      },
    });
    const { status, body } = await api(user.browser, 'sendMessage', { body: request });
    expect(status).toBe(200);
    expect(body).toMatchObject({ delivered: 0, queued: 3, relay_configured: true });
    const got = await sink.waitFor(3);
    expect(got.map((m) => m.to[0]).sort()).toEqual([
      'bob@example.com',
      'carol@example.org',
      'hidden@example.net',
    ]);
    for (const m of got) {
      expect(m.from).toBe(user.email);
      expect(m.to).toHaveLength(1);
      expect(m.raw.toString()).not.toContain('hidden@example.net');
      expect(m.raw.toString()).not.toMatch(/^Bcc:/im);
      expect((await parse(m.raw)).subject).toBe('Over the wire');
    }
    await until(async () => (await outboxOf(user.accountId)).every((r) => r.status === 'sent'));
  });

  it('a body with "\\n.\\r\\n" or a lone CR reaches the relay as exactly one message', async () => {
    const sink = await startSink();
    const { ctx, user } = await withRelay({ port: sink.port });
    startJobs(ctx);
    const smuggled =
      'Before\n.\r\nMAIL FROM:<evil@example.com>\r\nRCPT TO:<victim@example.com>\r\nDATA\r\nSmuggled\r\n.\r\n' +
      'lone CR\r.\rafter\n.\nend';
    for (const content_type of ['text/plain', 'text/html']) {
      await api(user.browser, 'sendMessage', {
        body: compose(user.email, ['bob@example.com'], { content: smuggled, content_type }),
      });
    }
    const got = await sink.waitFor(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages).toHaveLength(2);
    for (const m of got) {
      expect(m.to).toEqual(['bob@example.com']);
      expect(m.from).toBe(user.email);
      // Every line ending CRLF: nothing for a lenient server downstream to split on.
      expect(m.raw.toString('latin1')).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    }
    const text = (await parse(got[0]!.raw)).text!;
    expect(text).toContain('MAIL FROM:<evil@example.com>');
    expect(text).toContain('Smuggled');
  });

  it('signs with DKIM when the sender domain has a key, and the signature verifies', async () => {
    const sink = await startSink();
    const { ctx, user } = await withRelay({ port: sink.port });
    startJobs(ctx);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await db
      .insertInto('dkim_keys')
      .values({
        domain: 'mailroom.test',
        selector: 'test2026',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      })
      .onConflict((oc) => oc.column('domain').doNothing())
      .execute();
    const txt = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const request = compose(user.email, ['bob@example.com'], {
      subject: 'Подписано',
      content: '<p>Тело</p>',
    });
    await api(user.browser, 'sendMessage', { body: request });
    const [message] = await sink.waitFor(1);
    expect(message!.raw.toString()).toMatch(/^DKIM-Signature: .*d=mailroom\.test/);
    const resolver = async (name: string, type: string) => {
      if (type === 'TXT' && name === 'test2026._domainkey.mailroom.test') return [[txt]];
      throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
    };
    const result = await dkimVerify(message!.raw, { resolver });
    expect(result.results[0]?.status.result).toBe('pass');
    expect(result.results[0]?.signingDomain).toBe('mailroom.test');

    // A key the DNS does not publish makes it fail: the check is real.
    const wrong = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const other = `v=DKIM1; k=rsa; p=${wrong.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const failing = await dkimVerify(message!.raw, {
      resolver: async (name: string, type: string) =>
        type === 'TXT' && name.includes('_domainkey') ? [[other]] : [],
    });
    expect(failing.results[0]?.status.result).toBe('fail');
    await db.deleteFrom('dkim_keys').execute();
  });

  it('when the relay is down the message is retried, then delivered once it is back', async () => {
    const { ctx, user, port } = await withRelay();
    startJobs(ctx);
    await api(user.browser, 'sendMessage', { body: compose(user.email, ['later@example.com']) });
    const failed = await until(async () => {
      const [row] = await outboxOf(user.accountId);
      return row && row.attempts >= 2 && row;
    });
    expect(failed.status).toBe('queued');
    expect(failed.last_error).toBeTruthy();
    const sink = await startSink({ port });
    const [got] = await sink.waitFor(1, 20_000);
    expect(got!.to).toEqual(['later@example.com']);
    await until(async () => (await outboxOf(user.accountId))[0]?.status === 'sent');
  });

  it('a permanent 550 comes back to the sender as a bounce in the Inbox', async () => {
    const sink = await startSink({
      reject: (rcpt) =>
        rcpt.startsWith('gone')
          ? { code: 550, message: '5.1.1 <gone@example.com>: user unknown' }
          : undefined,
    });
    const { ctx, user } = await withRelay({ port: sink.port });
    startJobs(ctx);
    const { body } = await api(user.browser, 'sendMessage', {
      body: compose(user.email, ['gone@example.com', 'here@example.com'], { subject: 'Are you there?' }),
    });
    expect(body.queued).toBe(2);
    await sink.waitFor(1);
    const bounce = await until(async () =>
      db
        .selectFrom('messages')
        .select(['blob_hash', 'thread_id'])
        .where('folder_id', '=', user.folders.inbox)
        .executeTakeFirst(),
    );
    const raw = (await ctx.blobs.get(bounce.blob_hash)).toString();
    expect(raw).toMatch(/Content-Type: multipart\/report; report-type=delivery-status/);
    expect(raw).toContain('Content-Type: message/delivery-status');
    expect(raw).toContain('Final-Recipient: rfc822; gone@example.com');
    expect(raw).toContain('Status: 5.1.1');
    expect(raw).toContain('Diagnostic-Code: smtp; 550');
    expect(raw).toContain('Subject: Are you there?');
    // It joins the thread of the sent message.
    const sent = await db
      .selectFrom('messages')
      .select('thread_id')
      .where('folder_id', '=', user.folders.sent)
      .executeTakeFirstOrThrow();
    expect(bounce.thread_id).toBe(sent.thread_id);
    // The other recipient's row is marked sent once its relay attempt settles, which may come after the bounce.
    const rows = await until(async () => {
      const now = await outboxOf(user.accountId);
      return now.every((r) => r.status !== 'queued') && now;
    });
    expect(rows.map((r) => [r.recipient, r.status])).toEqual([
      ['gone@example.com', 'bounced'],
      ['here@example.com', 'sent'],
    ]);
  });

  it('temporary failures bounce once the attempts are used up', async () => {
    const sink = await startSink({ reject: () => ({ code: 451, message: '4.3.0 try again later' }) });
    const { ctx, user } = await withRelay({
      port: sink.port,
      env: { OUTBOX_MAX_ATTEMPTS: '3', OUTBOX_RETRY_BASE_MS: '50' },
    });
    startJobs(ctx);
    await api(user.browser, 'sendMessage', { body: compose(user.email, ['slow@example.com']) });
    const row = await until(async () => {
      const [r] = await outboxOf(user.accountId);
      return r?.status === 'bounced' && r;
    });
    expect(row.attempts).toBe(3);
    const [bounce] = await db
      .selectFrom('messages')
      .select('subject')
      .where('folder_id', '=', user.folders.inbox)
      .execute();
    expect(bounce!.subject).toBe('Undelivered Mail Returned to Sender');
  });
});

describe('several processes', () => {
  it('two outbox workers on one database deliver each message exactly once', async () => {
    const sink = await startSink();
    const { ctx, user } = await withRelay({ port: sink.port });
    const count = 30;
    for (let i = 0; i < count; i++) {
      await api(user.browser, 'sendMessage', { body: compose(user.email, [`r${i}@example.com`]) });
    }
    // Two app processes' jobs, as two servers on one PostgreSQL would run them.
    // Both with short retries: a relay hiccup under load is retried, and the point here is that no row goes
    // out twice (once seen in CI on PostgreSQL: nothing reached the sink for 20 s; the rows are printed then).
    const other = await createTestApp({
      db,
      // Two servers of one deployment share the blobs as they share the database: with a blob folder of
      // its own, the second read none of the messages and retried them (the flake seen in CI before).
      blobs: ctx.blobs,
      env: {
        SMTP_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
        OUTBOX_POLL_MS: '20',
        OUTBOX_RETRY_BASE_MS: '100',
      },
    });
    startJobs(ctx);
    startJobs(other);
    await sink.waitFor(count).catch(async (err: unknown) => {
      throw new Error(`${String(err)}; outbox: ${JSON.stringify(await outboxOf(user.accountId))}`);
    });
    await until(async () => (await outboxOf(user.accountId)).every((r) => r.status === 'sent'));
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.messages).toHaveLength(count);
    expect(new Set(sink.messages.map((m) => m.to[0])).size).toBe(count);
  });
});

describe('a process that dies mid-delivery', () => {
  it('leaves its claimed rows to be delivered by another once the lease runs out', async () => {
    const sink = await startSink();
    const { ctx, user } = await withRelay({ port: sink.port });
    await api(user.browser, 'sendMessage', { body: compose(user.email, ['orphan@example.com']) });
    // The dead process claimed the row (one attempt counted) and never finished it.
    const claimed = await claimJobs(db, {
      owner: 'dead-process',
      leaseMs: 1500,
      limit: 10,
      kinds: ['outbox-local', 'outbox-remote'],
    });
    const orphan = await db
      .selectFrom('outbox')
      .select('id')
      .where('account_id', '=', user.accountId)
      .executeTakeFirstOrThrow();
    expect(claimed.map((j) => [j.kind, j.key])).toEqual([['outbox-remote', String(orphan.id)]]);
    startJobs(ctx);
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages).toHaveLength(0);
    const [got] = await sink.waitFor(1);
    expect(got!.to).toEqual(['orphan@example.com']);
    const row = await until(async () => {
      const [r] = await outboxOf(user.accountId);
      return r?.status === 'sent' && r;
    });
    expect(row.attempts).toBe(2);
  });
});

describe('without a relay', () => {
  it('remote mail stays queued and the answer says no relay is configured', async () => {
    const ctx = await createTestApp({ db, env: { OUTBOX_POLL_MS: '50' } });
    const user = await mailUser(ctx, 'Ann Lee');
    startJobs(ctx);
    const { body } = await api(user.browser, 'sendMessage', {
      body: compose(user.email, ['far@example.com']),
    });
    expect(body).toMatchObject({ delivered: 0, queued: 1, relay_configured: false });
    await new Promise((r) => setTimeout(r, 400));
    expect(await outboxOf(user.accountId)).toEqual([
      { recipient: 'far@example.com', status: 'queued', attempts: 0, last_error: null, local: false },
    ]);
  });
});
