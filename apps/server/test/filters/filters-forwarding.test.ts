import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestApp, cleanup } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { smtpTransport } from '../_smtp.js';
import { parse, startSink, until } from '../_sending.js';
import { freePort } from '../../../../test-support/ports.js';
import { srsForward, srsKeyOf, srsReverse } from '../../src/addresses/index.js';
import { startIngestServer } from '../../src/delivery/index.js';
import { claimRedirect } from '../../src/filters/index.js';
import { startSendingJobs, withFilterActions } from '../../src/sending/index.js';
import { api, apiRequest } from '../_client.js';

// Issue 28 items 2–4: what filters send on leaves as us, within a cap, never for spam, and only as the owner set it.
const HOUR_CAP = 3;
const relayPort = await freePort();
const sink = await startSink({ port: relayPort });
const ctx = await createTestApp({
  env: {
    SMTP_RELAY_URL: `smtp://127.0.0.1:${relayPort}`,
    OUTBOX_POLL_MS: '50',
    OUTBOX_RETRY_BASE_MS: '100',
    REDIRECT_LIMIT_HOUR: String(HOUR_CAP),
    AUTH_RATE_LIMIT: '10000',
  },
});
const { mailDomain } = ctx.config;
const jobs = startSendingJobs(withFilterActions({ ...ctx, log: pino({ level: 'silent' }) }));
cleanup(() => jobs.stop());
const ingest = await startIngestServer(withFilterActions({ ...ctx, log: pino({ level: 'silent' }) }), {
  port: 0,
  host: '127.0.0.1',
});
cleanup(() => ingest.close());
const smtp = smtpTransport(ingest.port);

async function saveRules(user: MailUser, rules: string) {
  const saved = await api(user.browser, 'saveFilters', { body: { filters: [{ name: 'Rule', rules }] } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

const sinkFor = (address: string) => sink.messages.filter((m) => m.to.includes(address));
const inboxSubjects = async (user: MailUser) =>
  (
    await ctx.db
      .selectFrom('messages')
      .select('subject')
      .where('account_id', '=', user.accountId)
      .where('folder_id', '=', user.folders.inbox)
      .orderBy('id')
      .execute()
  ).map((m) => m.subject);
const settle = () => new Promise((r) => setTimeout(r, 800));

/** One SMTP transaction by hand: each command's reply code, in order. */
async function smtpCodes(commands: string[]): Promise<number[]> {
  const socket = net.connect(ingest.port, '127.0.0.1');
  socket.setEncoding('utf8');
  let buffer = '';
  const replies: string[] = [];
  const next = () =>
    until(async () => {
      const m = /^(\d{3}) .*\r\n/m.exec(buffer);
      if (!m) return false;
      buffer = buffer.slice(m.index + m[0].length);
      return m[1]!;
    }, 5000);
  socket.on('data', (d: string) => (buffer += d));
  await next();
  for (const c of ['EHLO test.example', ...commands]) {
    socket.write(`${c}\r\n`);
    replies.push(await next());
  }
  socket.end('QUIT\r\n');
  return replies.slice(1).map(Number);
}

let ann: MailUser;
let bob: MailUser;
beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Forwarding');
  bob = await mailUser(ctx, 'Bob Forwarding');
});

describe('redirects leave as us, within a cap, never for spam', () => {
  it('redirected mail leaves with our SRS envelope sender, never the foreign one, and the address reads back', async () => {
    await saveRules(
      ann,
      'require "copy";\nredirect :copy "srs-boss@remote.example";\nredirect :copy "srs-two@remote.example";',
    );
    await smtp.sendMail({
      envelope: { from: 'ceo@bank.example', to: [ann.email] },
      from: 'ceo@bank.example',
      to: ann.email,
      subject: 'Spoofed',
      text: 'Wire the money',
    });
    await until(
      async () =>
        sinkFor('srs-boss@remote.example').length > 0 && sinkFor('srs-two@remote.example').length > 0,
    );
    for (const sent of [...sinkFor('srs-boss@remote.example'), ...sinkFor('srs-two@remote.example')]) {
      expect(sent.from).toMatch(
        new RegExp(`^SRS0=[a-z2-7]{6}=[a-z2-7]{2}=bank\\.example=ceo@${mailDomain.replace('.', '\\.')}$`),
      );
      expect(srsReverse(srsKeyOf(ctx.secrets), sent.from, mailDomain)).toEqual({
        kind: 'valid',
        original: 'ceo@bank.example',
      });
      expect((await parse(sent.raw)).subject).toBe('Spoofed');
    }
    expect(sink.messages.filter((m) => m.from === 'ceo@bank.example')).toEqual([]);
  });

  it('our SMTP takes a bounce to a valid SRS address and refuses a forged, expired or non-bounce one', async () => {
    const key = srsKeyOf(ctx.secrets);
    const valid = srsForward(key, 'someone@origin.example', mailDomain);
    const forged = valid.replace(/^SRS0=[a-z2-7]{6}/, 'SRS0=aaaaaa');
    const expired = srsForward(key, 'someone@origin.example', mailDomain, Date.now() - 30 * 86_400_000);
    const bounce = (rcpt: string) => [`MAIL FROM:<>`, `RCPT TO:<${rcpt}>`];
    expect(await smtpCodes(bounce(valid))).toEqual([250, 250]);
    expect(await smtpCodes(bounce(forged))).toEqual([250, 550]);
    expect(await smtpCodes(bounce(expired))).toEqual([250, 550]);
    expect(await smtpCodes([`MAIL FROM:<spammer@else.example>`, `RCPT TO:<${valid}>`])).toEqual([250, 550]);
    // The bounce is taken (250 after DATA) and dropped: nothing relayed on, nothing stored.
    const before = sink.messages.length;
    const codes = await smtpCodes([
      ...bounce(valid),
      'DATA',
      `From: MAILER-DAEMON@remote.example\r\nSubject: Undelivered\r\n\r\nNo such user.\r\n.`,
    ]);
    expect(codes).toEqual([250, 250, 354, 250]);
    await settle();
    expect(sink.messages.length).toBe(before);
  });

  it('past the hourly cap a redirect is kept, not forwarded, and the owner is told once', async () => {
    await saveRules(bob, 'redirect "capped@remote.example";');
    for (let i = 1; i <= HOUR_CAP + 3; i++)
      await smtp.sendMail({
        envelope: { from: `sender${i}@remote.example`, to: [bob.email] },
        from: `sender${i}@remote.example`,
        to: bob.email,
        subject: `Capped ${i}`,
        text: 'Forward me',
      });
    await until(async () => sinkFor('capped@remote.example').length >= HOUR_CAP);
    await settle();
    expect(sinkFor('capped@remote.example')).toHaveLength(HOUR_CAP);
    const inbox = await inboxSubjects(bob);
    expect(inbox.filter((s) => s?.startsWith('Capped'))).toEqual(['Capped 4', 'Capped 5', 'Capped 6']);
    expect(inbox.filter((s) => s === 'Your filters reached the limit of forwarded mail')).toHaveLength(1);
    const { body } = await api(bob.browser, 'filters');
    expect(body.sieve_filter.errors[0].message).toMatch(/over the limit of 3 redirected messages a hour/);
  });

  it('the caps per hour and per day are counted in the database, both or neither', async () => {
    const carl = await mailUser(ctx, 'Carl Caps');
    const limits = { hour: 10, day: 2 };
    expect(await claimRedirect(ctx.db, carl.accountId, limits)).toEqual({ ok: true });
    expect(await claimRedirect(ctx.db, carl.accountId, limits)).toEqual({ ok: true });
    expect(await claimRedirect(ctx.db, carl.accountId, limits)).toEqual({
      ok: false,
      period: 'day',
      limit: 2,
      tell: true,
    });
    expect(await claimRedirect(ctx.db, carl.accountId, limits)).toMatchObject({ ok: false, tell: false });
    const rows = await ctx.db
      .selectFrom('filter_redirect_counts')
      .select(['period', 'count'])
      .where('account_id', '=', carl.accountId)
      .orderBy('period')
      .execute();
    expect(rows).toEqual([
      { period: 'day', count: 2 },
      { period: 'hour', count: 2 },
    ]);
  });

  it('a message the filter files into Junk is not redirected', async () => {
    const dana = await mailUser(ctx, 'Dana Junk');
    await saveRules(
      dana,
      'if header :contains "subject" "prize" { fileinto "Junk"; }\nredirect :copy "junk-boss@remote.example";',
    );
    await smtp.sendMail({
      from: 'x@remote.example',
      to: dana.email,
      subject: 'You won a prize',
      text: 'Click',
    });
    await smtp.sendMail({ from: 'x@remote.example', to: dana.email, subject: 'Lunch', text: 'Noon?' });
    await until(async () => sinkFor('junk-boss@remote.example').length > 0);
    await settle();
    const sent = await Promise.all(
      sinkFor('junk-boss@remote.example').map(async (m) => (await parse(m.raw)).subject),
    );
    expect(sent).toEqual(['Lunch']);
    const { body } = await api(dana.browser, 'filters');
    expect(body.sieve_filter.errors[0].message).toMatch(/spam, so it is not forwarded/);
  });
});

describe('a vacation reply is signed as the member', () => {
  it('a vacation reply to mail another mailbox here forwarded goes to the original sender, not our SRS address', async () => {
    const hal = await mailUser(ctx, 'Hal Forwarder');
    const ivy = await mailUser(ctx, 'Ivy Away');
    await saveRules(hal, `redirect "${ivy.email}";`);
    await saveRules(ivy, 'vacation :days 1 :subject "Ivy is away" "Back soon.";');
    const from = 'original-asker@remote.example';
    await smtp.sendMail({
      envelope: { from, to: [hal.email] },
      from,
      to: [hal.email, ivy.email].join(', '),
      subject: 'For Hal',
      text: 'Hello?',
    });
    const [reply] = await until(async () => sinkFor(from).length > 0 && sinkFor(from));
    expect((await parse(reply!.raw)).subject).toBe('Ivy is away');
    expect(sink.messages.filter((m) => m.to.some((t) => /^srs0=/i.test(t)))).toEqual([]);
  });

  it('vacation :from a foreign address replies from the member’s own address with their name', async () => {
    const erin = await mailUser(ctx, 'Erin Away');
    await saveRules(erin, 'vacation :days 1 :from "ceo@bank.example" :subject "Away" "I am away.";');
    const from = 'asker@remote.example';
    await smtp.sendMail({ from, to: erin.email, subject: 'Question', text: 'Hello?' });
    const [reply] = await until(async () => sinkFor(from).length > 0 && sinkFor(from));
    const parsed = await parse(reply!.raw);
    expect(parsed.from?.value).toEqual([{ address: erin.email, name: 'Erin Away' }]);
    expect(reply!.raw.toString()).not.toContain('ceo@bank.example');
  });
});

describe('only the owner sets up forwarding', () => {
  it('an impersonating session cannot add or change a redirect, a vacation reply or a collector; other rules save', async () => {
    const owner = await mailUser(ctx, 'Fay Owner');
    const grantee = await mailUser(ctx, 'Gus Grantee');
    const memberId = async (u: MailUser) =>
      (
        await ctx.db
          .selectFrom('accounts')
          .select('member_id')
          .where('id', '=', u.accountId)
          .executeTakeFirstOrThrow()
      ).member_id;
    const ownerRules = 'require "copy";\nredirect :copy "fay-other@remote.example";';
    await saveRules(owner, ownerRules);
    const grant = await api(owner.browser, 'grantImpersonation', {
      query: { member_id: await memberId(grantee) },
    });
    expect(grant.status).toBe(200);
    const switched = await apiRequest(grantee.browser, 'impersonate', {
      body: { member_id: await memberId(owner) },
    });
    expect(switched.statusCode).toBe(200);

    const save = (rules: string) =>
      api(grantee.browser, 'saveFilters', { body: { filters: [{ name: 'Rule', rules }] } });
    const refused = await save(`require "copy";\nredirect :copy "${grantee.email}";`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.meta.i8s).toBe('forwarding_owner_only');
    expect((await save('vacation :days 1 "Away";')).body.error?.meta.i8s).toBe('forwarding_owner_only');
    expect((await save(`${ownerRules}\nredirect :copy "${grantee.email}";`)).status).toBe(403);
    // The owner's own redirect may stay, and rules that forward nothing are the grantee's to change.
    expect(
      (await save(`${ownerRules}\nif header :contains "subject" "x" { addflag "\\\\Flagged"; }`)).status,
    ).toBe(200);
    expect((await save('keep;')).status).toBe(200);

    const collector = await api(grantee.browser, 'createCollector', {
      body: {
        email: 'gus@remote.example',
        password: 'secret',
      },
    });
    expect(collector.status).toBe(403);
    expect(collector.body.error.meta.i8s).toBe('forwarding_owner_only');

    // The owner is not held back.
    await saveRules(owner, `require "copy";\nredirect :copy "${grantee.email}";`);
  });
});
