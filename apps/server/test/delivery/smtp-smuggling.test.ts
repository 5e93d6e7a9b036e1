import { describe, expect, it } from 'vitest';
import { createAccount } from '../_mail.js';
import { rawSession, startTestIngest } from '../_smtp.js';

/**
 * The end-of-data variants of the 2023 SMTP smuggling research (SEC Consult): each one, were
 * it honoured, would end the first message early and run the rest as a second transaction
 * with a forged sender. Only CRLF.CRLF ends DATA here, and data holding a bare LF or CR is
 * refused as a whole (5.6.0), so nothing of it is stored.
 */
const fakeEnds: Record<string, string> = {
  'LF.LF': '\n.\n',
  'LF.CRLF': '\n.\r\n',
  'CR.CRLF': '\r.\r\n',
  'CRLF.CR': '\r\n.\r',
  'CR.CR': '\r.\r',
  'CR.LF': '\r.\n',
  'LF.CR': '\n.\r',
  'CRLF.LF': '\r\n.\n',
  'bare LF line endings': '\n',
  'bare CR line endings': '\r',
};

describe('SMTP smuggling', async () => {
  const { db, port, config } = await startTestIngest();
  const victim = await createAccount(db, 'Victim');
  const count = async () =>
    (
      await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', victim.id)
        .executeTakeFirstOrThrow()
    ).n;

  it.each(Object.entries(fakeEnds))('%s never splits one message into two', async (_name, fakeEnd) => {
    const before = Number(await count());
    const smuggled =
      `MAIL FROM:<ceo@${config.mailDomain}>\r\n` +
      `RCPT TO:<${victim.email}>\r\n` +
      'DATA\r\n' +
      `From: ceo@${config.mailDomain}\r\nSubject: smuggled\r\n\r\npay now\r\n.\r\n`;
    const replies = await rawSession(port, [
      'EHLO attacker.example\r\n',
      'MAIL FROM:<a@attacker.example>\r\n',
      `RCPT TO:<${victim.email}>\r\n`,
      'DATA\r\n',
      `From: a@attacker.example\r\nSubject: innocent\r\n\r\nhello${fakeEnd}${smuggled}`,
    ]);
    // Greeting, EHLO, MAIL, RCPT, 354, one verdict on the one message, QUIT: no smuggled replies.
    expect(replies.map((r) => r.code)).toEqual([220, 250, 250, 250, 354, 550, 221]);
    expect(replies[5]!.text).toMatch(/^5\.6\.0 Bare (LF|CR)/);
    expect(Number(await count())).toBe(before);
  });

  it('only CRLF.CRLF ends a message, and dot-stuffing is undone', async () => {
    const before = Number(await count());
    const replies = await rawSession(port, [
      'EHLO client.example\r\n',
      'MAIL FROM:<a@client.example>\r\n',
      `RCPT TO:<${victim.email}>\r\n`,
      'DATA\r\n',
      'Subject: one\r\n\r\n..leading dot kept\r\nhello\r\n.\r\n',
    ]);
    expect(replies.map((r) => r.code)).toEqual([220, 250, 250, 250, 354, 250, 221]);
    expect(Number(await count())).toBe(before + 1);
    const stored = await db
      .selectFrom('messages')
      .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
      .select('body_text')
      .where('messages.account_id', '=', victim.id)
      .orderBy('messages.id', 'desc')
      .executeTakeFirstOrThrow();
    expect(stored.body_text).toContain('.leading dot kept');
    expect(stored.body_text).not.toContain('..leading');
  });

  it('refuses CR, LF or NUL inside EHLO, MAIL FROM and RCPT TO', async () => {
    const cases = [
      ['EHLO bad\rhost\r\n'],
      ['EHLO bad\u0000host\r\n'],
      ['EHLO ok.example\r\n', 'MAIL FROM:<a\u0000b@example.org>\r\n'],
      ['EHLO ok.example\r\n', 'MAIL FROM:<a\rb@example.org>\r\n'],
      ['EHLO ok.example\r\n', 'MAIL FROM:<a@example.org>\r\n', `RCPT TO:<x\u0000${victim.email}>\r\n`],
      ['EHLO ok.example\r\n', 'MAIL FROM:<a@example.org>\r\n', `RCPT TO:<x\r${victim.email}>\r\n`],
    ];
    for (const steps of cases) {
      const replies = await rawSession(port, steps);
      const last = replies[steps.length]!;
      expect(last.code, JSON.stringify(steps)).toBeGreaterThanOrEqual(500);
      expect(last.code, JSON.stringify(steps)).toBeLessThan(600);
    }
  });
});
