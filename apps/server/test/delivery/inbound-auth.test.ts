import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../_mail.js';
import { startTestDns } from '../_dns.js';
import { rawSession, smtpTransport, startTestIngest } from '../_smtp.js';
import type { MessageVerdict } from '../../src/mailbox/index.js';
import { dkimKey, dkimSigned, type DkimKey } from '../../../../test-support/dkim.js';

/**
 * Inbound mail is authenticated at SMTP time (issue 30): SPF, DKIM (RSA and Ed25519), DMARC and ARC checked against
 * the test's own DNS server on loopback, with messages signed and sealed by mailauth; one Authentication-Results of
 * ours on the stored message; DMARC enforced; hostile signatures cost bounded time.
 */
const { sealMessage } = createRequire(import.meta.url)('mailauth/lib/arc/index.js') as {
  sealMessage(
    raw: Buffer,
    seal: { signingDomain: string; selector: string; privateKey: string; authResults: string; cv: string },
  ): Promise<Buffer>;
};

const dns = await startTestDns();
const MX = 'mx.mailroom.test';
const env = { DNS_SERVERS: dns.server, MX_HOST: MX, DNS_CACHE_SECONDS: '0' };

let seq = 0;
/** A domain of this run with SPF for the loopback client (or `spf`), a DMARC policy and a DKIM key published. */
function senderDomain(
  policy: 'none' | 'quarantine' | 'reject' | null,
  options: { spf?: string; key?: DkimKey } = {},
) {
  const name = `sender${seq++}-${Date.now().toString(36)}.test`;
  const key = options.key ?? dkimKey();
  dns.zone.set(name, 'TXT', [options.spf ?? 'v=spf1 ip4:127.0.0.1 -all']);
  if (policy) dns.zone.set(`_dmarc.${name}`, 'TXT', [`v=DMARC1; p=${policy}`]);
  dns.zone.set(`sel._domainkey.${name}`, 'TXT', [key.record]);
  return { name, key };
}

function message(from: string, to: string, subject: string, extraHeaders = ''): Buffer {
  return Buffer.from(
    `${extraHeaders}From: Sender <${from}>\r\nTo: ${to}\r\nSubject: ${subject}\r\n` +
      `Message-ID: <${Date.now()}.${seq++}@test>\r\nDate: ${new Date().toUTCString()}\r\n` +
      'MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n' +
      'Hello, this is a test message with enough words to look like mail.\r\n',
  );
}

const signed = (raw: Buffer, domain: string, key: DkimKey) => dkimSigned(raw, domain, key);

type Ingest = Awaited<ReturnType<typeof startTestIngest>>;

async function send(ingest: Ingest, from: string, to: string, raw: Buffer) {
  return smtpTransport(ingest.port).sendMail({ envelope: { from, to: [to] }, raw });
}

/** The account's messages with their folder, stored bytes and verdict. */
async function stored(ingest: Ingest, accountId: number) {
  const rows = await ingest.db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
    .select(['messages.subject', 'messages.blob_hash', 'folders.system', 'message_contents.verdict'])
    .where('messages.account_id', '=', accountId)
    .orderBy('messages.id')
    .execute();
  return Promise.all(
    rows.map(async (r) => ({
      subject: r.subject,
      folder: r.system,
      verdict: r.verdict as MessageVerdict | null,
      raw: (await ingest.blobs.get(r.blob_hash)).toString('latin1'),
    })),
  );
}

const authResultsOf = (raw: string) =>
  raw
    .split(/\r\n(?![ \t])/)
    .filter((f) => /^authentication-results:/i.test(f))
    .map((f) => f.replace(/\r\n[ \t]+/g, ' '));

describe('inbound authentication', () => {
  it('a DKIM-signed message with SPF pass from an aligned domain lands in the Inbox with dkim=pass spf=pass dmarc=pass, and a forged result naming us is gone', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const { name, key } = senderDomain('reject');
    const forged = `Authentication-Results: ${MX}; dkim=pass; spf=pass; dmarc=pass\r\nAuthentication-Results: other.example; spf=fail\r\n`;
    const raw = await signed(message(`billing@${name}`, account.email, 'Invoice', forged), name, key);
    const info = await send(ingest, `bounce@${name}`, account.email, raw);
    expect(info.response).toMatch(/^250 /);

    const [mail] = await stored(ingest, account.id);
    expect(mail!.folder).toBe('inbox');
    const results = authResultsOf(mail!.raw);
    // Ours on top, the forgery claiming our authserv-id removed, another host's kept.
    expect(results).toHaveLength(2);
    expect(mail!.raw.startsWith('Authentication-Results: mx.mailroom.test;')).toBe(true);
    expect(results[0]).toMatch(new RegExp(`dkim=pass .*header\\.d=${name.replace(/\./g, '\\.')}`));
    expect(results[0]).toMatch(/spf=pass/);
    expect(results[0]).toMatch(/dmarc=pass/);
    expect(results[1]).toBe('Authentication-Results: other.example; spf=fail');
    expect(mail!.verdict?.auth).toMatchObject({
      fromDomain: name,
      spf: { result: 'pass', domain: name },
      dkim: [{ domain: name, selector: 'sel', result: 'pass', aligned: true }],
      dmarc: { result: 'pass', policy: 'reject' },
    });
  });

  it('an Ed25519 signature (RFC 8463) verifies', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const { name, key } = senderDomain('none', { key: dkimKey('ed25519'), spf: 'v=spf1 -all' });
    const raw = await signed(message(`news@${name}`, account.email, 'Ed'), name, key);
    await send(ingest, `news@${name}`, account.email, raw);
    const [mail] = await stored(ingest, account.id);
    expect(mail!.verdict?.auth?.dkim).toEqual([
      { domain: name, selector: 'sel', result: 'pass', aligned: true },
    ]);
    expect(mail!.verdict?.auth?.spf.result).toBe('fail');
    expect(mail!.verdict?.auth?.dmarc.result).toBe('pass');
  });

  it('a forged message from a p=reject domain is refused with 550 5.7.1 and nothing is stored', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const { name } = senderDomain('reject', { spf: 'v=spf1 -all' });
    const replies = await rawSession(ingest.port, [
      'EHLO attacker.example\r\n',
      `MAIL FROM:<support@${name}>\r\n`,
      `RCPT TO:<${account.email}>\r\n`,
      'DATA\r\n',
      Buffer.concat([message(`support@${name}`, account.email, 'Verify your wallet'), Buffer.from('.\r\n')]),
    ]);
    // The last reply is QUIT's; the one before answers the message.
    expect(replies.at(-2)!.code).toBe(550);
    expect(replies.at(-2)!.text).toMatch(/^5\.7\.1 .*DMARC/);
    expect(await stored(ingest, account.id)).toEqual([]);
  });

  it('a forged message from a p=quarantine domain goes to Junk; from p=none to the Inbox, the failure recorded', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const quarantine = senderDomain('quarantine', { spf: 'v=spf1 -all' });
    const none = senderDomain('none', { spf: 'v=spf1 -all' });
    await send(
      ingest,
      `a@${quarantine.name}`,
      account.email,
      message(`a@${quarantine.name}`, account.email, 'Q'),
    );
    await send(ingest, `a@${none.name}`, account.email, message(`a@${none.name}`, account.email, 'N'));
    const [q, n] = await stored(ingest, account.id);
    expect(q).toMatchObject({ subject: 'Q', folder: 'junk' });
    expect(q!.verdict).toMatchObject({
      junk: 'dmarc',
      auth: { dmarc: { result: 'fail', policy: 'quarantine' } },
    });
    expect(n).toMatchObject({ subject: 'N', folder: 'inbox' });
    expect(n!.verdict).toMatchObject({
      auth: { spf: { result: 'fail' }, dmarc: { result: 'fail', policy: 'none' } },
    });
    expect(n!.verdict?.junk).toBeUndefined();
  });

  it('a body changed after signing fails DKIM', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const { name, key } = senderDomain('none', { spf: 'v=spf1 -all' });
    const raw = (await signed(message(`a@${name}`, account.email, 'Changed'), name, key)).toString('latin1');
    await send(ingest, `a@${name}`, account.email, Buffer.from(raw.replace('enough words', 'other words')));
    const [mail] = await stored(ingest, account.id);
    // mailauth says neutral for a body hash that does not match (RFC 6376 §6.1.3 leaves the word to the verifier).
    expect(mail!.verdict?.auth?.dkim[0]).toMatchObject({ domain: name, result: 'neutral' });
    expect(mail!.verdict?.auth?.dmarc.result).toBe('fail');
    expect(authResultsOf(mail!.raw)[0]).toMatch(/dkim=neutral \(body hash did not verify\)/);
  });

  it('a forward sealed by a trusted ARC sealer is delivered though its DMARC fails; without the trust it is refused', async () => {
    const origin = senderDomain('reject');
    const list = senderDomain(null);
    // The list changes the body (its footer) — the origin's signature breaks — and seals what it saw.
    const original = await signed(
      message(`ceo@${origin.name}`, `team@${list.name}`, 'Minutes'),
      origin.name,
      origin.key,
    );
    const changed = Buffer.from(
      original.toString('latin1').replace(/\r\n$/, '\r\n-- \r\nThe list footer\r\n'),
    );
    const seal = await sealMessage(changed, {
      signingDomain: list.name,
      selector: 'sel',
      privateKey: list.key.privateKey,
      authResults: `${list.name}; dkim=pass header.d=${origin.name}; spf=pass; dmarc=pass header.from=${origin.name}`,
      cv: 'none',
    });
    const forwarded = Buffer.concat([seal, changed]);

    const trusting = await startTestIngest({ env: { ...env, ARC_TRUSTED_SEALERS: list.name } });
    const member = await createAccount(trusting.db);
    const info = await send(trusting, `bounces@${list.name}`, member.email, forwarded);
    expect(info.response).toMatch(/^250 /);
    const [mail] = await stored(trusting, member.id);
    expect(mail!.folder).toBe('inbox');
    expect(mail!.verdict?.auth).toMatchObject({
      dmarc: { result: 'fail', policy: 'reject' },
      arc: { result: 'pass', sealer: list.name, trusted: true },
    });

    const strict = await startTestIngest({ env });
    const other = await createAccount(strict.db);
    await expect(send(strict, `bounces@${list.name}`, other.email, forwarded)).rejects.toMatchObject({
      responseCode: 550,
    });
  });

  it('a DNS failure never refuses: the message is delivered with temperror recorded', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const { name, key } = senderDomain('reject', { spf: 'v=spf1 -all' });
    dns.zone.fail(`_dmarc.${name}`);
    dns.zone.fail(name);
    await send(
      ingest,
      `a@${name}`,
      account.email,
      await signed(message(`a@${name}`, account.email, 'T'), name, key),
    );
    const [mail] = await stored(ingest, account.id);
    expect(mail!.folder).toBe('inbox');
    expect(mail!.verdict?.auth?.spf.result).toBe('temperror');
    // The key's name answers: the signature verifies, and DMARC, whose record could not be read, says temperror.
    expect(mail!.verdict?.auth?.dkim[0]?.result).toBe('pass');
    expect(mail!.verdict?.auth?.dmarc.result).toBe('temperror');
  });

  it('50 signatures, one with 10,000 tags, and a huge TXT record cost bounded time and get a 250', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const name = `hostile${seq++}.test`;
    // SPF: 40 strings of 255 characters, one record (16 KB over TCP).
    dns.zone.set(name, 'TXT', [['v=spf1', ...Array.from({ length: 40 }, () => ` a:${'x'.repeat(250)}`)]]);
    for (let i = 0; i < 50; i++) dns.zone.set(`s${i}._domainkey.${name}`, 'TXT', ['v=DKIM1; k=rsa; p=MIIB']);
    const signatures = Array.from(
      { length: 50 },
      (_, i) =>
        `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${name}; s=s${i}; l=${i}; h=from:to; bh=AAAA; b=AAAA\r\n`,
    ).join('');
    const tags = Array.from({ length: 10_000 }, (_, i) => `x${i}=${i}`).join('; ');
    const huge = `DKIM-Signature: v=1; a=rsa-sha256; d=${name}; s=s0; h=from; bh=AA; b=AA; ${tags}\r\n`;
    const started = performance.now();
    const info = await send(
      ingest,
      `a@${name}`,
      account.email,
      message(`a@${name}`, account.email, 'H', huge + signatures),
    );
    const ms = performance.now() - started;
    expect(info.response).toMatch(/^250 /);
    expect(ms).toBeLessThan(5000);
    const [mail] = await stored(ingest, account.id);
    expect(mail!.verdict?.auth?.dkim.length).toBe(10);
    expect(mail!.verdict?.auth?.dkim.every((d) => d.result !== 'pass')).toBe(true);
    // The signatures past the tenth were not verified, and are stored as they came.
    expect(mail!.raw).toContain(`s=s49; l=49`);
    expect(mail!.raw).not.toContain('X-Unchecked-DKIM-Signature');
  });

  it('over LMTP the client SPF judges is the one the front MTA names in its Received field', async () => {
    const ingest = await startTestIngest({ env, lmtp: true });
    const account = await createAccount(ingest.db);
    const { name } = senderDomain('reject', { spf: 'v=spf1 ip4:127.0.0.5 -all' });
    const received = `Received: from mail.${name} (mail.${name} [127.0.0.5])\r\n\tby front.mailroom.test with ESMTPS id 4XyZ; ${new Date().toUTCString()}\r\n`;
    const info = await smtpTransport(ingest.port, { lmtp: true }).sendMail({
      envelope: { from: `a@${name}`, to: [account.email] },
      raw: Buffer.concat([Buffer.from(received), message(`a@${name}`, account.email, 'Via the front MTA')]),
    });
    expect(info.response).toMatch(/^250 /);
    const [mail] = await stored(ingest, account.id);
    expect(mail!.verdict?.auth).toMatchObject({ spf: { result: 'pass' }, dmarc: { result: 'pass' } });
  });

  it('a HELO that is no host name is not repeated in our header: results cannot be smuggled through it', async () => {
    const ingest = await startTestIngest({ env });
    const account = await createAccount(ingest.db);
    const { name } = senderDomain('none');
    const replies = await rawSession(ingest.port, [
      'EHLO a.example;dmarc=pass(x)\r\n',
      `MAIL FROM:<a@${name}>\r\n`,
      `RCPT TO:<${account.email}>\r\n`,
      'DATA\r\n',
      Buffer.concat([message(`a@${name}`, account.email, 'C'), Buffer.from('.\r\n')]),
    ]);
    expect(replies.at(-2)!.code).toBe(250);
    const [mail] = await stored(ingest, account.id);
    const [ours] = authResultsOf(mail!.raw);
    expect(ours).not.toContain('a.example');
    expect(ours).toContain('smtp.helo="[127.0.0.1]"');
    expect(ours!.match(/;\s+dmarc=/g)).toHaveLength(1);
  });
});
