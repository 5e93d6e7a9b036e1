import fs from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { configureParsePool, openAttachment } from '../../src/mailbox/index.js';
import { createAccount } from '../_mail.js';
import { smtpTransport, startTestIngest } from '../_smtp.js';

/**
 * Malformed and hostile mail: every message is accepted, stored byte for byte, shown as well
 * as it can be, and the server stays up. mailparser runs in a worker with a heap cap and a
 * time limit (shortened here); what it cannot parse is described from its header alone.
 */
configureParsePool({ timeoutMs: 5000 });
afterAll(() => configureParsePool({ timeoutMs: 10_000 }));

const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');

function nested(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
    close = `\r\n--b${i}--\r\n` + close;
  }
  return open + 'Content-Type: text/plain\r\n\r\ndeep inside' + close;
}

describe('hostile and malformed mail', async () => {
  const { db, port, blobs, config } = await startTestIngest();
  const account = await createAccount(db, 'Target');
  const transport = smtpTransport(port);
  const head = (subject: string) =>
    `From: sender@example.org\r\nTo: ${account.email}\r\nSubject: ${subject}\r\n`;

  const cases: Record<string, { raw: Buffer; subject: string; text?: RegExp }> = {
    'broken multipart boundaries': {
      raw: Buffer.from(
        crlf(`${head('broken boundary')}Content-Type: multipart/mixed; boundary="AAA"

--AAA
Content-Type: text/plain

first part
--BBB
Content-Type: text/html

<b>never closed
`),
      ),
      subject: 'broken boundary',
      text: /first part/,
    },
    '1,000-level multipart nesting': {
      raw: Buffer.from(`${head('deep')}${nested(1000)}`),
      subject: 'deep',
    },
    'a million empty parts': {
      raw: Buffer.from(
        `${head('million parts')}Content-Type: multipart/mixed; boundary="x"\r\n\r\n${'--x\r\n\r\n'.repeat(1_000_000)}--x--\r\n`,
      ),
      subject: 'million parts',
    },
    'invalid base64 and quoted-printable': {
      raw: Buffer.from(
        crlf(`${head('bad encodings')}Content-Type: multipart/mixed; boundary="p"

--p
Content-Type: text/plain
Content-Transfer-Encoding: base64

!!!not*base64@@@====
--p
Content-Type: text/plain
Content-Transfer-Encoding: quoted-printable

broken =ZZ soft=
=4
--p
Content-Type: application/pdf; name="x.pdf"
Content-Transfer-Encoding: base64

%%%%
--p--
`),
      ),
      subject: 'bad encodings',
      text: /broken/,
    },
    'unknown charset': {
      raw: Buffer.from(
        `${head('=?x-klingon?Q?qapla?=')}Content-Type: text/plain; charset=x-klingon\r\n\r\nplain words\r\n`,
      ),
      subject: 'qapla',
      text: /plain words/,
    },
    'UTF-7 header and body': {
      raw: Buffer.from(
        `${head('=?utf-7?Q?Hi_+BB8EQAQ4BDIENQRC-?=')}Content-Type: text/plain; charset=utf-7\r\n\r\nHi +BB8EQAQ4BDIENQRC-\r\n`,
      ),
      subject: 'Hi Привет',
      text: /Hi/,
    },
    'NUL bytes in header and body': {
      raw: Buffer.from(`${head('nul\u0000inside')}Content-Type: text/plain\r\n\r\nbefore\u0000after\r\n`),
      subject: 'nul inside',
      text: /before\s?after/,
    },
    'huge headers': {
      raw: Buffer.from(
        `${head('huge ' + 'word '.repeat(200_000))}${'X-Junk: 0123456789\r\n'.repeat(20_000)}\r\nbody\r\n`,
      ),
      subject: 'huge word word',
    },
    'KOI8-R and windows-1251 encoded words and an 8-bit KOI8-R body': {
      raw: Buffer.concat([
        Buffer.from(
          `From: =?windows-1251?B?yOLg7Q==?= <ivan@example.org>\r\nTo: ${account.email}\r\n` +
            'Subject: =?koi8-r?B?8NLJ18XU?=\r\nContent-Type: text/plain; charset=koi8-r\r\n' +
            'Content-Transfer-Encoding: 8bit\r\n\r\n',
        ),
        Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4, 0x0d, 0x0a]),
      ]),
      subject: 'Привет',
      text: /Привет/,
    },
  };

  const storedBy = async (subjectStart: string) =>
    db
      .selectFrom('messages')
      .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
      .select(['blob_hash', 'subject', 'from_name', 'attachments', 'body_text'])
      .where('messages.account_id', '=', account.id)
      .where('subject', 'like', `${subjectStart}%`)
      .executeTakeFirstOrThrow();

  it.each(Object.entries(cases))('%s: stored byte for byte and shown as best possible', async (_name, c) => {
    const info = await transport.sendMail({
      envelope: { from: 'sender@example.org', to: [account.email] },
      raw: c.raw,
    });
    expect(info.response).toMatch(/^250 /);
    const row = await storedBy(c.subject.slice(0, 12));
    expect(row.subject.startsWith(c.subject)).toBe(true);
    // Byte for byte after the one Authentication-Results field our SMTP puts on top (issue 30).
    const stored = await blobs.get(row.blob_hash);
    expect(stored.subarray(stored.length - c.raw.length).equals(c.raw)).toBe(true);
    const added = stored.subarray(0, stored.length - c.raw.length).toString('latin1');
    expect(added).toMatch(/^Authentication-Results: [^\r\n]*(\r\n[ \t][^\r\n]*)*\r\n$/);
    if (c.text) expect(row.body_text).toMatch(c.text);
  });

  it('windows-1251 sender names are decoded', async () => {
    expect((await storedBy('Привет')).from_name).toBe('Иван');
  });

  it('attachment names with paths or NUL are shown sanitised and never become file paths', async () => {
    const names = ['../x', '..\\x', '/etc/x', 'a\u0000b.txt', '..'];
    const parts = names.map(
      (name) =>
        `--n\r\nContent-Type: application/octet-stream; name="${name.replace(/\\/g, '\\\\')}"\r\n` +
        `Content-Disposition: attachment; filename="${name.replace(/\\/g, '\\\\')}"\r\n` +
        `Content-Transfer-Encoding: base64\r\n\r\n${Buffer.from(`content of ${JSON.stringify(name)}`).toString('base64')}\r\n`,
    );
    const raw = Buffer.from(
      `${head('evil names')}Content-Type: multipart/mixed; boundary="n"\r\n\r\n${parts.join('')}--n--\r\n`,
    );
    await transport.sendMail({ envelope: { from: 'sender@example.org', to: [account.email] }, raw });
    const row = await storedBy('evil names');
    const shown = row.attachments.map((a) => a.name);
    expect(shown).toHaveLength(names.length);
    // eslint-disable-next-line no-control-regex
    for (const name of shown) expect(name).toMatch(/^[^/\\\u0000-\u001f]*$/);
    expect(shown.slice(0, 3)).toEqual(['x', 'x', 'x']);
    expect(shown).not.toContain('..');
    for (const a of row.attachments) {
      expect((await buffer(await openAttachment(blobs, row.blob_hash, a))).toString()).toMatch(
        /^content of /,
      );
    }

    // Nothing but hash-named blobs was written under the data folder.
    const files = (await fs.readdir(config.dataDir, { recursive: true, withFileTypes: true })).filter((f) =>
      f.isFile(),
    );
    for (const f of files) {
      const rel = path.relative(config.dataDir, path.join(f.parentPath, f.name));
      expect(rel).toMatch(/^blobs\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
    }
  });

  it('the server still delivers ordinary mail afterwards', async () => {
    const info = await transport.sendMail({
      from: 'a@example.org',
      to: account.email,
      subject: 'still alive',
      text: 'ok',
    });
    expect(info.response).toMatch(/^250 /);
    expect((await storedBy('still alive')).body_text).toContain('ok');
  });
});
