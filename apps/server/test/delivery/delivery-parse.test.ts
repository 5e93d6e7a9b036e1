import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configureParsePool, parseWorkers } from '../../src/mailbox/index.js';
import { parseMessage, parseMessageFile } from '../../src/mailbox/index.js';
import { decodePart } from '../../src/mailbox/parse/part-ranges.js';
import { composeRaw } from '../_mail.js';
import { cleanup } from '../_util.js';

const message = (body: string) =>
  Buffer.from(
    'From: =?koi8-r?B?8NLJ18XU?= <ann@example.org>\r\nTo: bo@example.org\r\n' +
      'Subject: =?windows-1251?B?yOLg7Q==?=\r\nMessage-ID: <m1@example.org>\r\n' +
      `Content-Type: text/plain; charset=utf-8\r\n\r\n${body}`,
  );

describe('parsing in bounded workers', () => {
  afterEach(() => configureParsePool({ timeoutMs: 10_000, maxHeapMb: 192, idleMs: 30_000 }));

  it('parses ordinary mail completely', async () => {
    const parsed = await parseMessage(message('hello\r\n'));
    expect(parsed).toMatchObject({ subject: 'Иван', messageId: 'm1@example.org', text: 'hello\n' });
    expect(parsed.addresses.from).toEqual([{ email: 'ann@example.org', name: 'Привет' }]);
  });

  it('a parse that runs out of time is cut off and the message is described from its header', async () => {
    configureParsePool({ timeoutMs: 1 });
    const parsed = await parseMessage(message('still readable\r\n'.repeat(50_000)));
    expect(parsed.subject).toBe('Иван');
    expect(parsed.addresses.from).toEqual([{ email: 'ann@example.org', name: 'Привет' }]);
    expect(parsed.text.startsWith('still readable')).toBe(true);
    expect(parsed.text.length).toBeLessThanOrEqual(64 * 1024);

    configureParsePool({ timeoutMs: 10_000 });
    expect((await parseMessage(message('back to normal\r\n'))).text).toBe('back to normal\n');
  });

  it('a worker left idle is ended, giving its memory back, and the next message starts one', async () => {
    configureParsePool({ idleMs: 100 });
    expect((await parseMessage(message('first\r\n'))).text).toBe('first\n');
    expect(parseWorkers()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(parseWorkers()).toBe(0);
    expect((await parseMessage(message('second\r\n'))).text).toBe('second\n');
    expect(parseWorkers()).toBe(1);
  });

  it('a parse that runs out of heap ends only its worker, never the server', async () => {
    configureParsePool({ maxHeapMb: 8 });
    const body = Buffer.alloc(60_000_000, 'a')
      .toString()
      .replace(/(.{76})/g, '$1\r\n');
    const parsed = await parseMessage(message(body));
    expect(parsed.subject).toBe('Иван');
    configureParsePool({ maxHeapMb: 192 });
    expect((await parseMessage(message('fine\r\n'))).text).toBe('fine\n');
  });
});

describe('parsing a spooled message file', () => {
  afterEach(() => configureParsePool({ timeoutMs: 10_000, maxHeapMb: 192 }));

  it('keeps each attachment as a range of the message file, and a big file gets time in proportion to its size', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-spool-'));
    cleanup(() => fs.rm(dir, { recursive: true, force: true }));
    const content = randomBytes(12 * 1024 * 1024);
    const raw = await composeRaw({
      from: 'ann@example.org',
      to: 'bo@example.org',
      subject: 'Scans',
      text: 'attached',
      attachments: [{ filename: 'scan.bin', content }],
    });
    const file = path.join(dir, 'message.eml');
    await fs.writeFile(file, raw);
    // Far too little for 16 MB read and decoded twice, were it not for the size allowance.
    configureParsePool({ timeoutMs: 200 });
    const parsed = await parseMessageFile({ path: file, size: raw.length });
    expect(parsed.subject).toBe('Scans');
    expect(parsed.attachments).toHaveLength(1);
    const { part, size } = parsed.attachments[0]!;
    expect(size).toBe(content.length);
    expect(part.encoding).toBe('base64');
    const decoded = await buffer(
      decodePart(createReadStream(file, { start: part.start, end: part.end - 1 }), 'base64'),
    );
    expect(decoded.equals(content)).toBe(true);
    expect(await fs.readdir(dir)).toEqual(['message.eml']);
  });
});
