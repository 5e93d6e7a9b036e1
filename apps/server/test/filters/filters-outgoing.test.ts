import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { DKIMVerifyResult, DNSResolver } from 'mailauth';
import { createTestApp, cleanup } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { smtpTransport } from '../_smtp.js';
import { parse, startSink, until } from '../_sending.js';
import { freePort } from '../../../../test-support/ports.js';
import { startIngestServer } from '../../src/delivery/index.js';
import { startSendingJobs, withFilterActions } from '../../src/sending/index.js';
import { api } from '../_client.js';

const relayPort = await freePort();
const sink = await startSink({ port: relayPort });
const ctx = await createTestApp({
  env: { SMTP_RELAY_URL: `smtp://127.0.0.1:${relayPort}`, OUTBOX_POLL_MS: '50', OUTBOX_RETRY_BASE_MS: '100' },
});
// The outbox job as main.ts starts it: local delivery runs the recipients' filters, and what they send goes out.
const jobs = startSendingJobs(withFilterActions({ ...ctx, log: pino({ level: 'silent' }) }));
cleanup(() => jobs.stop());
const ingest = await startIngestServer(withFilterActions({ ...ctx, log: pino({ level: 'silent' }) }), {
  port: 0,
  host: '127.0.0.1',
});
cleanup(() => ingest.close());
const smtp = smtpTransport(ingest.port);

const { dkimVerify } = createRequire(import.meta.url)('mailauth/lib/dkim/verify.js') as {
  dkimVerify: (raw: Buffer, opts: { resolver: DNSResolver }) => Promise<DKIMVerifyResult>;
};
const { arc } = createRequire(import.meta.url)('mailauth/lib/arc/index.js') as {
  arc: (data: unknown, opts: { resolver: DNSResolver }) => Promise<{ status: { result: string } }>;
};

let ann: MailUser;
let bob: MailUser;
beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Outgoing');
  bob = await mailUser(ctx, 'Bob Outgoing');
});

async function saveRules(user: MailUser, rules: string) {
  const saved = await api(user.browser, 'saveFilters', { body: { filters: [{ name: 'Rule', rules }] } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

const sinkFor = (address: string) => sink.messages.filter((m) => m.to.includes(address));
const storedWith = (accountId: number, subject: string) =>
  ctx.db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .select(['folders.name as folder'])
    .where('messages.account_id', '=', accountId)
    .where('messages.subject', '=', subject)
    .execute();
const settle = () => new Promise((r) => setTimeout(r, 600));

describe('what filters send, through the outbox', () => {
  it('a vacation reply reaches the sender exactly once for two messages, and never answers bulk mail', async () => {
    await saveRules(ann, 'vacation :days 1 :subject "Away until Monday" "I am away.";');
    const from = 'carl@remote.example';
    await smtp.sendMail({
      from,
      to: ann.email,
      subject: 'Question',
      text: 'Are you there?',
      messageId: '<q1@remote.example>',
    });
    await smtp.sendMail({ from, to: ann.email, subject: 'Question 2', text: 'Hello?' });
    await smtp.sendMail({
      from: 'news@remote.example',
      to: ann.email,
      subject: 'Newsletter',
      text: 'News',
      headers: { Precedence: 'bulk' },
    });
    const [reply] = await until(async () => sinkFor(from).length > 0 && sinkFor(from));
    await settle();
    expect(sinkFor(from)).toHaveLength(1);
    expect(sinkFor('news@remote.example')).toHaveLength(0);
    expect(reply!.from).toBe('');
    const parsed = await parse(reply!.raw);
    expect(parsed.subject).toBe('Away until Monday');
    expect(parsed.text?.trim()).toBe('I am away.');
    expect(parsed.headers.get('auto-submitted')).toBe('auto-replied');
    expect(parsed.inReplyTo).toBe('<q1@remote.example>');
    // The messages themselves are kept.
    expect(await storedWith(ann.accountId, 'Question')).toEqual([{ folder: 'INBOX' }]);
  });

  it('redirect sends the message as received from its envelope sender, with the loop header; :copy keeps it', async () => {
    await saveRules(ann, 'redirect "boss@remote.example";');
    await smtp.sendMail({
      envelope: { from: 'origin@remote.example', to: [ann.email] },
      from: 'origin@remote.example',
      to: ann.email,
      subject: 'Forward me',
      text: 'Body',
    });
    const [sent] = await until(
      async () => sinkFor('boss@remote.example').length > 0 && sinkFor('boss@remote.example'),
    );
    // Our SRS address for the original sender (RFC 5321 §3.9), never the original one.
    expect(sent!.from).toMatch(/^SRS0=[a-z2-7]{6}=[a-z2-7]{2}=remote\.example=origin@/);
    expect(sent!.raw.toString()).toMatch(new RegExp(`^X-Mailroom-Redirected-From: ${ann.email}\r\n`));
    expect((await parse(sent!.raw)).subject).toBe('Forward me');
    expect(await storedWith(ann.accountId, 'Forward me')).toEqual([]);

    await saveRules(ann, 'require "copy";\nredirect :copy "boss@remote.example";');
    await smtp.sendMail({ from: 'origin@remote.example', to: ann.email, subject: 'Copy me', text: 'Body' });
    await until(async () => sinkFor('boss@remote.example').length > 1);
    expect(await storedWith(ann.accountId, 'Copy me')).toEqual([{ folder: 'INBOX' }]);
  });

  it("a redirected message leaves ARC-sealed with the operator's key, our Authentication-Results in its seal", async () => {
    const domain = ann.email.slice(ann.email.indexOf('@') + 1);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await ctx.db
      .insertInto('dkim_keys')
      .values({
        domain,
        selector: 'arc2026',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      })
      .execute();
    try {
      await saveRules(ann, 'redirect "sealed-boss@remote.example";');
      await smtp.sendMail({ from: 'origin@remote.example', to: ann.email, subject: 'Seal me', text: 'Body' });
      const [sent] = await until(
        async () => sinkFor('sealed-boss@remote.example').length > 0 && sinkFor('sealed-boss@remote.example'),
      );
      const raw = sent!.raw.toString();
      expect(raw).toMatch(/^(DKIM-Signature: (.|\r\n[ \t])*\r\n)?ARC-Seal: i=1; /);
      expect(raw).toMatch(
        new RegExp(`ARC-Authentication-Results: i=1; ${ctx.config.mxHost.replace(/\./g, '\\.')};`),
      );
      const txt = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
      const resolver = async (name: string, type: string) => {
        if (type === 'TXT' && name === `arc2026._domainkey.${domain}`) return [[txt]];
        throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
      };
      const verified = (await dkimVerify(sent!.raw, { resolver })) as DKIMVerifyResult & { arc: unknown };
      const chain = await arc(verified.arc, { resolver });
      expect(chain.status.result).toBe('pass');
    } finally {
      await ctx.db.deleteFrom('dkim_keys').where('domain', '=', domain).execute();
    }
  });

  it("a sender's retry of a message a filter redirected without keeping it is not redirected again", async () => {
    await saveRules(ann, 'redirect "retry-boss@remote.example";');
    const raw =
      'From: origin@remote.example\r\nTo: ' +
      ann.email +
      '\r\nSubject: Sent twice\r\nMessage-ID: <twice@remote.example>\r\n\r\nOur 250 was lost on the way.\r\n';
    const envelope = { from: 'origin@remote.example', to: [ann.email] };
    await smtp.sendMail({ envelope, raw });
    await smtp.sendMail({ envelope, raw });
    await until(async () => sinkFor('retry-boss@remote.example').length > 0);
    await settle();
    expect(sinkFor('retry-boss@remote.example')).toHaveLength(1);
  });

  it('a redirect loop between two local users ends with the message kept and the loop told', async () => {
    await saveRules(ann, `redirect "${bob.email}";`);
    await saveRules(bob, `redirect "${ann.email}";`);
    await smtp.sendMail({ from: 'someone@remote.example', to: ann.email, subject: 'Loop', text: 'Round' });
    const kept = await until(async () => {
      const rows = await storedWith(ann.accountId, 'Loop');
      return rows.length > 0 && rows;
    });
    expect(kept).toEqual([{ folder: 'INBOX' }]);
    await settle();
    expect(await storedWith(ann.accountId, 'Loop')).toHaveLength(1);
    expect(await storedWith(bob.accountId, 'Loop')).toEqual([]);
    const { body } = await api(ann.browser, 'filters');
    expect(body.sieve_filter.errors[0].message).toMatch(/loop/);
  });

  it('reject stores nothing and returns a DSN with the reason to the envelope sender', async () => {
    await saveRules(bob, 'require "reject";\nreject "No unsolicited offers, please.";');
    const info = await smtp.sendMail({
      from: 'seller@remote.example',
      to: bob.email,
      subject: 'Offer',
      text: 'Buy',
    });
    expect(info.response).toMatch(/^250 /);
    const [dsn] = await until(
      async () => sinkFor('seller@remote.example').length > 0 && sinkFor('seller@remote.example'),
    );
    expect(dsn!.from).toBe('');
    expect(dsn!.raw.toString()).toContain('No unsolicited offers, please.');
    expect(await storedWith(bob.accountId, 'Offer')).toEqual([]);
  });

  it('a :mime vacation reply carries the reason as its own MIME part, and is DKIM-signed by the From domain', async () => {
    const domain = ann.email.slice(ann.email.indexOf('@') + 1);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await ctx.db
      .insertInto('dkim_keys')
      .values({
        domain,
        selector: 'auto2026',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      })
      .execute();
    await saveRules(
      ann,
      'require ["vacation"];\nvacation :mime :subject "Away" text:\r\n' +
        'Content-Type: text/html; charset=utf-8\r\n\r\n<p>Away <b>until Monday</b></p>\r\n.\r\n;',
    );
    const from = 'dora@remote.example';
    await smtp.sendMail({ from, to: ann.email, subject: 'Anyone?', text: 'Hello' });
    const [reply] = await until(async () => sinkFor(from).length > 0 && sinkFor(from));
    const parsed = await parse(reply!.raw);
    expect(parsed.subject).toBe('Away');
    expect(parsed.html).toContain('<b>until Monday</b>');
    expect(parsed.text ?? '').not.toContain('Content-Type');
    // The null envelope sender, yet signed for the domain of From (the mailbox's own).
    expect(reply!.from).toBe('');
    expect(reply!.raw.toString()).toMatch(new RegExp(`^DKIM-Signature: .*d=${domain.replace('.', '\\.')}`));
    const txt = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const result = await dkimVerify(reply!.raw, {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === `auto2026._domainkey.${domain}`) return [[txt]];
        throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
      },
    });
    expect(result.results[0]?.status.result).toBe('pass');
    await ctx.db.deleteFrom('dkim_keys').where('domain', '=', domain).execute();
  });
});
