import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { sql } from 'kysely';
import { createAccount } from '../_mail.js';
import { rawSession, smtpTransport, startTestIngest } from '../_smtp.js';
import { cleanup } from '../_util.js';
import { SMALL_BLOB_MAX_BYTES } from '../../src/core/blobs/index.js';

const inboxOf = async (db: Awaited<ReturnType<typeof startTestIngest>>['db'], accountId: number) =>
  db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .selectAll('messages')
    .select(['folders.system', 'folders.unread_count'])
    .where('messages.account_id', '=', accountId)
    .orderBy('messages.id')
    .execute();

describe('SMTP ingest', () => {
  it('mail sent over SMTP lands in the Inbox with subject, sender, attachment, unread count and an event', async () => {
    const { db, port, events } = await startTestIngest();
    const account = await createAccount(db, 'Ann Lee');
    const received: MailEvent[] = [];
    events.subscribe(account.id, (e) => received.push(e));
    const info = await smtpTransport(port).sendMail({
      from: 'Иван Петров <ivan@example.org>',
      to: account.email,
      subject: 'Отчёт за квартал',
      text: 'Привет! See the attached file.',
      attachments: [{ filename: 'отчёт.txt', content: 'числа' }],
    });
    expect(info.accepted).toEqual([account.email]);
    expect(info.response).toMatch(/^250 /);

    const [message] = await inboxOf(db, account.id);
    expect(message).toMatchObject({
      system: 'inbox',
      subject: 'Отчёт за квартал',
      from_email: 'ivan@example.org',
      from_name: 'Иван Петров',
      seen: false,
      unread_count: 1,
      has_attachments: true,
    });
    expect(message!.attachments.map((a) => a.name)).toEqual(['отчёт.txt']);
    const quota = await db
      .selectFrom('accounts')
      .select('quota_used_bytes')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(quota.quota_used_bytes).toBe(message!.size);
    expect(received.map((e) => e.event)).toEqual(['new', 'updateMailbox']);
  });

  it('an alias delivers to its account, and addresses match whatever their case', async () => {
    const { db, port, config } = await startTestIngest();
    const account = await createAccount(db);
    const alias = await db
      .insertInto('aliases')
      .values({ account_id: account.id, email: `sales@${config.mailDomain}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const transport = smtpTransport(port);
    await transport.sendMail({
      from: 'a@example.org',
      to: `SALES@${config.mailDomain.toUpperCase()}`,
      subject: 'via alias',
      text: 'x',
    });
    await transport.sendMail({
      from: 'a@example.org',
      to: account.email.toUpperCase(),
      subject: 'via primary',
      text: 'x',
    });
    const rows = await inboxOf(db, account.id);
    expect(rows.map((r) => [r.subject, r.alias_id])).toEqual([
      ['via alias', alias.id],
      ['via primary', null],
    ]);
  });

  it('one message to the primary address and an alias of one account is stored once', async () => {
    const { db, port, config } = await startTestIngest();
    const account = await createAccount(db);
    await db
      .insertInto('aliases')
      .values({ account_id: account.id, email: `team@${config.mailDomain}` })
      .execute();
    const other = await createAccount(db);
    await smtpTransport(port).sendMail({
      from: 'a@example.org',
      to: [account.email, `team@${config.mailDomain}`, other.email],
      subject: 'to everyone',
      text: 'x',
    });
    expect(await inboxOf(db, account.id)).toHaveLength(1);
    expect(await inboxOf(db, other.id)).toHaveLength(1);
  });

  it('refuses an unknown local mailbox with 550 5.1.1 and a domain we do not host with 550 5.7.1', async () => {
    const { db, port, config } = await startTestIngest();
    const account = await createAccount(db);
    const replies = await rawSession(port, [
      'EHLO client.example.org\r\n',
      'MAIL FROM:<a@example.org>\r\n',
      `RCPT TO:<nobody@${config.mailDomain}>\r\n`,
      'RCPT TO:<someone@gmail.com>\r\n',
      `RCPT TO:<${account.email}>\r\n`,
    ]);
    expect(replies.map((r) => r.code)).toEqual([220, 250, 250, 550, 550, 250, 221]);
    expect(replies[3]!.text).toMatch(/^5\.1\.1 /);
    expect(replies[4]!.text).toMatch(/^5\.7\.1 Relay access denied/);
    await expect(
      smtpTransport(port).sendMail({
        from: 'a@example.org',
        to: 'x@elsewhere.example',
        subject: 's',
        text: 't',
      }),
    ).rejects.toMatchObject({ responseCode: 550 });
  });

  it('announces SIZE and refuses a bigger message with 552, at MAIL FROM when announced and after DATA when not', async () => {
    const { db, port } = await startTestIngest({ env: { MAX_MESSAGE_SIZE: '20000' } });
    const account = await createAccount(db);
    const replies = await rawSession(port, [
      'EHLO client.example.org\r\n',
      'MAIL FROM:<a@example.org> SIZE=30000\r\n',
    ]);
    expect(replies[1]!.text).toContain('SIZE 20000');
    expect(replies[2]!.code).toBe(552);
    const big = 'x'.repeat(76) + '\r\n';
    const raw = Buffer.from(`Subject: big\r\n\r\n${big.repeat(400)}`);
    const session = await rawSession(port, [
      'EHLO client.example.org\r\n',
      'MAIL FROM:<a@example.org>\r\n',
      `RCPT TO:<${account.email}>\r\n`,
      'DATA\r\n',
      Buffer.concat([raw, Buffer.from('.\r\n')]),
    ]);
    expect(session.map((r) => r.code)).toEqual([220, 250, 250, 250, 354, 552, 221]);
    expect(await inboxOf(db, account.id)).toHaveLength(0);
  });

  it('a full mailbox gets 452 4.2.2 at RCPT, a message bigger than the whole quota 552 5.2.2', async () => {
    const { db, port } = await startTestIngest();
    const account = await createAccount(db);
    await db
      .updateTable('accounts')
      .set({ quota_limit_bytes: 10_000, quota_used_bytes: 9_000 })
      .where('id', '=', account.id)
      .execute();
    const replies = await rawSession(port, [
      'EHLO client.example.org\r\n',
      'MAIL FROM:<a@example.org> SIZE=2000\r\n',
      `RCPT TO:<${account.email}>\r\n`,
      'RSET\r\n',
      'MAIL FROM:<a@example.org> SIZE=20000\r\n',
      `RCPT TO:<${account.email}>\r\n`,
      'RSET\r\n',
      'MAIL FROM:<a@example.org> SIZE=500\r\n',
      `RCPT TO:<${account.email}>\r\n`,
    ]);
    expect(replies.map((r) => r.code)).toEqual([220, 250, 250, 452, 250, 250, 552, 250, 250, 250, 221]);
    expect(replies[3]!.text).toMatch(/^4\.2\.2 /);
    expect(replies[6]!.text).toMatch(/^5\.2\.2 /);
  });

  it('a message that no longer fits when it arrives is refused with 452 and not stored', async () => {
    const { db, port } = await startTestIngest();
    const account = await createAccount(db);
    await db
      .updateTable('accounts')
      .set({ quota_limit_bytes: 10_000, quota_used_bytes: 9_900 })
      .where('id', '=', account.id)
      .execute();
    await expect(
      smtpTransport(port).sendMail({
        from: 'a@example.org',
        to: account.email,
        subject: 's',
        text: 'y'.repeat(1000),
      }),
    ).rejects.toMatchObject({ responseCode: 452 });
    expect(await inboxOf(db, account.id)).toHaveLength(0);
  });

  it('a reply sent over SMTP joins the thread of the message it answers', async () => {
    const { db, port } = await startTestIngest();
    const account = await createAccount(db);
    const transport = smtpTransport(port);
    await transport.sendMail({
      from: 'bo@example.org',
      to: account.email,
      subject: 'Lunch?',
      text: 'x',
      messageId: '<lunch-1@example.org>',
    });
    await transport.sendMail({ from: 'cy@example.org', to: account.email, subject: 'Unrelated', text: 'x' });
    await transport.sendMail({
      from: 'bo@example.org',
      to: account.email,
      subject: 'Re: Lunch?',
      text: 'y',
      inReplyTo: '<lunch-1@example.org>',
      references: ['<lunch-1@example.org>'],
    });
    const [first, unrelated, reply] = await inboxOf(db, account.id);
    expect(reply!.thread_id).toBe(first!.thread_id);
    expect(unrelated!.thread_id).not.toBe(first!.thread_id);
  });

  it('the same bytes retried after a lost 250 are not stored twice', async () => {
    const { db, port } = await startTestIngest();
    const account = await createAccount(db);
    const raw = Buffer.from(
      `From: a@example.org\r\nTo: ${account.email}\r\nSubject: once\r\nMessage-ID: <once@example.org>\r\n\r\nbody\r\n`,
    );
    const transport = smtpTransport(port);
    for (let i = 0; i < 2; i++) {
      await transport.sendMail({ envelope: { from: 'a@example.org', to: [account.email] }, raw });
    }
    expect(await inboxOf(db, account.id)).toHaveLength(1);
    // A different message with the same subject is of course a new one.
    await transport.sendMail({
      envelope: { from: 'a@example.org', to: [account.email] },
      raw: Buffer.concat([raw, Buffer.from('more\r\n')]),
    });
    expect(await inboxOf(db, account.id)).toHaveLength(2);
  });

  it('LMTP answers once per recipient, and a full mailbox does not hold back the others', async () => {
    const { db, port } = await startTestIngest({ lmtp: true });
    const [ann, bo] = [await createAccount(db), await createAccount(db)];
    await db
      .updateTable('accounts')
      .set({ quota_limit_bytes: 10_000, quota_used_bytes: 9_990 })
      .where('id', '=', bo.id)
      .execute();
    const replies = await rawSession(port, [
      'LHLO mta.example.org\r\n',
      'MAIL FROM:<a@example.org>\r\n',
      `RCPT TO:<${ann.email}>\r\n`,
      `RCPT TO:<${bo.email}>\r\n`,
      'DATA\r\n',
      `Subject: to two\r\n\r\n${'z'.repeat(500)}\r\n.\r\n`,
    ]);
    // Bo's mailbox passes the RCPT check (no SIZE announced) but not the actual message.
    expect(replies.map((r) => r.code)).toEqual([220, 250, 250, 250, 250, 354, 250, 452, 221]);
    expect(await inboxOf(db, ann.id)).toHaveLength(1);
    expect(await inboxOf(db, bo.id)).toHaveLength(0);
    await sql`select 1`.execute(db);
  });
});

describe('SMTP ingest limits', () => {
  it('past the large-message slots a large message is told to retry, small mail still flows, and the spool is left clean', async () => {
    const { db, port, blobs } = await startTestIngest({
      env: { SMTP_MAX_LARGE_MESSAGES: '1', SMTP_LARGE_MESSAGE_SIZE: '100000' },
    });
    const account = await createAccount(db);
    // The one slot is held by a sender that is 300 KB into its DATA and has not finished.
    const holder = net.connect(port, '127.0.0.1');
    cleanup(() => holder.destroy());
    let said = '';
    holder.on('data', (d: Buffer) => (said += d.toString()));
    await expect.poll(() => said, { timeout: 5000 }).toMatch(/^220 /m);
    holder.write(`EHLO a.example\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<${account.email}>\r\nDATA\r\n`);
    await expect.poll(() => said, { timeout: 5000 }).toMatch(/^354 /m);
    holder.write(`Subject: slow\r\n\r\n${`${'x'.repeat(98)}\r\n`.repeat(3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const big = smtpTransport(port).sendMail({
      from: 'b@example.com',
      to: account.email,
      subject: 'big',
      text: 'y'.repeat(300_000),
    });
    await expect(big).rejects.toMatchObject({ responseCode: 452 });
    const announced = await rawSession(port, [
      'EHLO b.example\r\n',
      'MAIL FROM:<b@example.com> SIZE=500000\r\n',
    ]);
    expect(announced.map((r) => r.code)).toEqual([220, 250, 452, 221]);
    const small = await smtpTransport(port).sendMail({
      from: 'c@example.com',
      to: account.email,
      subject: 'small',
      text: 'hello',
    });
    expect(small.response).toMatch(/^250 /);

    holder.write('\r\n.\r\n');
    await expect.poll(() => said, { timeout: 5000 }).toMatch(/^250 2\.0\.0 OK: message stored/m);
    const subjects = (await inboxOf(db, account.id)).map((m) => m.subject).sort();
    expect(subjects).toEqual(['slow', 'small']);
    // Every spooled file was kept or removed: nothing is left in the temporary area.
    expect(await fs.readdir(blobs.spoolDir)).toEqual([]);
  });

  it('the spool sweep removes files a stopped process left mid-message, and nothing fresh', async () => {
    const { blobs } = await startTestIngest();
    // Larger than what the spool keeps in memory alone, so each is a file.
    const body = Buffer.alloc(SMALL_BLOB_MAX_BYTES + 1, 'x');
    const left = blobs.openSpool();
    left.end(Buffer.concat([Buffer.from('Subject: half a message\r\n\r\n'), body]));
    await finished(left);
    const fresh = blobs.openSpool();
    fresh.end(Buffer.concat([Buffer.from('Subject: arriving now\r\n\r\n'), body]));
    await finished(fresh);
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    await fs.utimes(left.file().path, dayAgo, dayAgo);
    expect(await blobs.sweepSpool(24 * 3600_000)).toBe(1);
    expect(await fs.readdir(blobs.spoolDir)).toEqual([path.basename(fresh.file().path)]);
  });

  it('connections past SMTP_MAX_CONNECTIONS are turned away with 421', async () => {
    const { port } = await startTestIngest({ env: { SMTP_MAX_CONNECTIONS: '2' } });
    const open = [net.connect(port, '127.0.0.1'), net.connect(port, '127.0.0.1')];
    for (const socket of open) cleanup(() => socket.destroy());
    await Promise.all(open.map((s) => new Promise((resolve) => s.once('data', resolve))));
    const third = await rawSession(port, []);
    expect(third[0]).toMatchObject({ code: 421 });
  });
});
