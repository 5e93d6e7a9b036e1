import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { sql } from 'kysely';
import { createAccount } from '../_mail.js';
import { startTestDns } from '../_dns.js';
import { rawSession, smtpTransport, startTestIngest } from '../_smtp.js';
import { cleanup } from '../_util.js';
import { GTUBE, startRspamd } from '../../../../test-support/rspamd.js';
import { dkimKey, dkimSigned, type DkimKey } from '../../../../test-support/dkim.js';
import { runDueJob } from '../../src/core/jobs/index.js';
import { moveMessages, SPAM_LEARN_JOB, systemFolder, type MessageVerdict } from '../../src/mailbox/index.js';
import { learnFromMove, purgeOldJunk } from '../../src/spam/index.js';
import { putSenderEntries } from '../../src/spam/sender-lists.repository.js';

/**
 * Spam defence with a real Rspamd (Debian's package, started on loopback with a temporary configuration and the
 * local Redis; issue 30): GTUBE refused, Rspamd's "add header" to Junk unless the member allows the (proven) sender,
 * a soft reject deferred, Rspamd gone delivers unchecked, and moves to and from Junk teach it once each.
 */
const dns = await startTestDns();
const rspamd = await startRspamd({ dnsServer: dns.server });
cleanup(() => rspamd.stop());

// The controller behind a recorder: what reaches Rspamd's learning is counted.
const learned: string[] = [];
const recorder = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    learned.push(req.url ?? '');
    const forward = http.request(
      `${rspamd.controllerUrl}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    forward.end(Buffer.concat(chunks));
  });
});
await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
cleanup(() => new Promise((resolve) => recorder.close(resolve)));

const ingest = await startTestIngest({
  env: {
    DNS_SERVERS: dns.server,
    MX_HOST: 'mx.mailroom.test',
    RSPAMD_URL: rspamd.url,
    RSPAMD_CONTROLLER_URL: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`,
    RSPAMD_PASSWORD: rspamd.password,
    RSPAMD_TIMEOUT_MS: '3000',
  },
});
const { db } = ingest;

let seq = 0;
/** A sender domain with SPF for the loopback client and a DKIM key: its mail proves its From. */
function provenDomain() {
  const name = `shop${seq++}-${Date.now().toString(36)}.test`;
  const key = dkimKey();
  dns.zone.set(name, 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
  dns.zone.set(`_dmarc.${name}`, 'TXT', ['v=DMARC1; p=none']);
  dns.zone.set(`sel._domainkey.${name}`, 'TXT', [key.record]);
  return { name, key };
}

function message(
  from: string,
  to: string,
  subject: string,
  body = 'Hello, here is the weekly news from our shop.',
): Buffer {
  return Buffer.from(
    `From: Shop <${from}>\r\nTo: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${Date.now()}.${seq++}@shop.test>\r\n` +
      `Date: ${new Date().toUTCString()}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`,
  );
}

const signedMessage = (domain: { name: string; key: DkimKey }, to: string, subject: string) =>
  dkimSigned(message(`news@${domain.name}`, to, subject), domain.name, domain.key);

async function stored(accountId: number) {
  const rows = await db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
    .select([
      'messages.id',
      'messages.uid',
      'messages.folder_id',
      'messages.subject',
      'folders.system',
      'message_contents.verdict',
    ])
    .where('messages.account_id', '=', accountId)
    .orderBy('messages.id')
    .execute();
  return rows.map((r) => ({ ...r, verdict: r.verdict as MessageVerdict | null }));
}

const send = (from: string, to: string, raw: Buffer) =>
  smtpTransport(ingest.port).sendMail({ envelope: { from, to: [to] }, raw });

describe('spam scoring with Rspamd', () => {
  it('the GTUBE string is refused at SMTP with 550 5.7.1 and nothing is stored', async () => {
    const account = await createAccount(db);
    const replies = await rawSession(ingest.port, [
      'EHLO sender.test\r\n',
      'MAIL FROM:<a@sender.test>\r\n',
      `RCPT TO:<${account.email}>\r\n`,
      'DATA\r\n',
      Buffer.concat([message('a@sender.test', account.email, 'Test', GTUBE), Buffer.from('.\r\n')]),
    ]);
    expect(replies.at(-2)).toMatchObject({ code: 550, text: '5.7.1 Message rejected as spam' });
    expect(await stored(account.id)).toEqual([]);
  });

  it("Rspamd's add-header lands in Junk with its score; the same from an allowed, proven sender stays in the Inbox; a blocked one goes to Junk", async () => {
    const account = await createAccount(db);
    const shop = provenDomain();
    await send(
      `news@${shop.name}`,
      account.email,
      await signedMessage(shop, account.email, '[junk-test] Sale'),
    );
    await putSenderEntries(db, account.id, 'allow', [`news@${shop.name}`]);
    await send(
      `news@${shop.name}`,
      account.email,
      await signedMessage(shop, account.email, '[junk-test] Sale again'),
    );
    const other = provenDomain();
    await putSenderEntries(db, account.id, 'block', [other.name]);
    await send(
      `news@${other.name}`,
      account.email,
      await signedMessage(other, account.email, 'Clean but blocked'),
    );

    const [junk, allowed, blocked] = await stored(account.id);
    expect(junk).toMatchObject({ subject: '[junk-test] Sale', system: 'junk' });
    expect(junk!.verdict).toMatchObject({ junk: 'spam', spam: { status: 'scored', action: 'add header' } });
    expect(junk!.verdict!.spam).toMatchObject({ required: 15 });
    expect((junk!.verdict!.spam as { score: number }).score).toBeGreaterThanOrEqual(6);
    expect((junk!.verdict!.spam as { symbols: { name: string }[] }).symbols.map((s) => s.name)).toContain(
      'TEST_JUNK',
    );
    expect(allowed).toMatchObject({ subject: '[junk-test] Sale again', system: 'inbox' });
    expect(allowed!.verdict).toMatchObject({ list: 'allow', auth: { dmarc: { result: 'pass' } } });
    expect(blocked).toMatchObject({ system: 'junk', verdict: { list: 'block', junk: 'block' } });
  });

  it('a contact (an address written to) whose domain proved itself stays out of Junk, unless trust is turned off', async () => {
    const account = await createAccount(db);
    const shop = provenDomain();
    await db
      .insertInto('correspondents')
      .values({
        account_id: account.id,
        email: `news@${shop.name}`,
        name: 'Shop',
        sent_count: 1,
        last_sent_at: new Date(),
      })
      .execute();
    await send(
      `news@${shop.name}`,
      account.email,
      await signedMessage(shop, account.email, '[junk-test] From a contact'),
    );
    await db
      .updateTable('accounts')
      .set({ settings: sql`settings || '{"trust_contacts": false}'::jsonb` })
      .where('id', '=', account.id)
      .execute();
    await send(
      `news@${shop.name}`,
      account.email,
      await signedMessage(shop, account.email, '[junk-test] Untrusted'),
    );
    const [trusted, untrusted] = await stored(account.id);
    expect(trusted).toMatchObject({ system: 'inbox', verdict: { list: 'contact' } });
    expect(untrusted).toMatchObject({ system: 'junk', verdict: { junk: 'spam' } });
  });

  it('an allow-listed address whose domain did not prove itself gets no pass: a forged From stays in Junk', async () => {
    const account = await createAccount(db);
    const shop = provenDomain();
    await putSenderEntries(db, account.id, 'allow', [shop.name]);
    // Not signed, sent from an address the domain's SPF does not name (MAIL FROM elsewhere).
    await send(
      'bounce@elsewhere.test',
      account.email,
      message(`news@${shop.name}`, account.email, '[junk-test] Forged'),
    );
    const [mail] = await stored(account.id);
    expect(mail).toMatchObject({ system: 'junk', verdict: { junk: 'spam' } });
    expect(mail!.verdict!.list).toBeUndefined();
  });

  it("a member's Sieve script tests the score (spamtest) and our Authentication-Results", async () => {
    const account = await createAccount(db);
    const script = `require ["spamtest", "relational", "comparator-i;ascii-numeric", "imap4flags", "fileinto", "mailbox"];
# rule: [Spammy]
if spamtest :value "ge" :comparator "i;ascii-numeric" "5" { addflag "\\\\Flagged"; }
# rule: [Proven]
if header :contains "Authentication-Results" "dmarc=pass" { fileinto :create "Proven"; }`;
    await db.insertInto('filter_scripts').values({ account_id: account.id, script, version: 1 }).execute();
    const shop = provenDomain();
    await send(`news@${shop.name}`, account.email, await signedMessage(shop, account.email, 'Weekly'));
    await send(
      'a@sender.test',
      account.email,
      message('a@sender.test', account.email, '[junk-test] Flag me'),
    );
    const rows = await db
      .selectFrom('messages')
      .innerJoin('folders', 'folders.id', 'messages.folder_id')
      .select(['messages.subject', 'messages.flagged', 'folders.system'])
      .where('messages.account_id', '=', account.id)
      .orderBy('messages.id')
      .execute();
    expect(rows).toEqual([
      { subject: 'Weekly', flagged: false, system: null },
      { subject: '[junk-test] Flag me', flagged: true, system: 'junk' },
    ]);
  });

  it("Rspamd's soft reject is deferred with 451 4.7.1", async () => {
    const account = await createAccount(db);
    await expect(
      send('a@sender.test', account.email, message('a@sender.test', account.email, '[soft-test] Later')),
    ).rejects.toMatchObject({ responseCode: 451 });
    expect(await stored(account.id)).toEqual([]);
  });

  it('with Rspamd stopped mail still arrives in the Inbox, marked unchecked', async () => {
    const account = await createAccount(db);
    await rspamd.stop();
    try {
      const info = await send(
        'a@sender.test',
        account.email,
        message('a@sender.test', account.email, '[junk-test] While down'),
      );
      expect(info.response).toMatch(/^250 /);
    } finally {
      await rspamd.start();
    }
    const [mail] = await stored(account.id);
    expect(mail).toMatchObject({ system: 'inbox', verdict: { spam: { status: 'unavailable' } } });
  });

  it('moving a message to Junk and back teaches Rspamd exactly one learn_spam and one learn_ham', async () => {
    const account = await createAccount(db);
    const body =
      'Cheap watches and pills, limited offer, buy now, discount pharmacy, best prices on replica goods today.';
    await send('a@sender.test', account.email, message('a@sender.test', account.email, 'Offer', body));
    const [mail] = await stored(account.id);
    const junk = await systemFolder(db, account.id, 'junk');
    const inbox = await systemFolder(db, account.id, 'inbox');
    const deps = {
      config: ingest.config,
      db,
      blobs: ingest.blobs,
      events: ingest.events,
      log: pino({ level: 'silent' }),
    };
    const handler = learnFromMove(deps, ingest.config.inbound.rspamd);
    const learn = () => runDueJob({ db, kind: SPAM_LEARN_JOB, handler });
    const before = learned.length;

    await moveMessages(db, account.id, {
      destination_id: junk.id,
      folder_messages: [{ folder_id: mail!.folder_id, message_uids: [mail!.uid] }],
    });
    expect(await learn()).toBe(true);
    const [inJunk] = await stored(account.id);
    await moveMessages(db, account.id, {
      destination_id: inbox.id,
      folder_messages: [{ folder_id: junk.id, message_uids: [inJunk!.uid] }],
    });
    expect(await learn()).toBe(true);
    expect(await learn()).toBe(false);
    expect(learned.slice(before)).toEqual(['/learnspam', '/learnham']);
  });

  it("Junk's retention removes what arrived before JUNK_RETENTION_DAYS and keeps the rest", async () => {
    const account = await createAccount(db);
    await send('a@sender.test', account.email, message('a@sender.test', account.email, '[junk-test] Old'));
    await send('a@sender.test', account.email, message('a@sender.test', account.email, '[junk-test] New'));
    const [old] = await stored(account.id);
    await db
      .updateTable('messages')
      .set({ received_at: new Date(Date.now() - 31 * 86_400_000) })
      .where('id', '=', old!.id)
      .execute();
    const deps = {
      config: ingest.config,
      db,
      blobs: ingest.blobs,
      events: ingest.events,
      log: pino({ level: 'silent' }),
    };
    expect(await purgeOldJunk(deps)).toBeGreaterThanOrEqual(1);
    expect((await stored(account.id)).map((m) => m.subject)).toEqual(['[junk-test] New']);
  });
});
