import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { IMPORT_MESSAGE_MAX_BYTES } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser } from '../_actions.js';
import { importFile, mbox, tempDir, zip } from '../_imports.js';

const ctx = await createTestApp();

const message = (id: string, size = 0) =>
  Buffer.from(
    `Message-ID: <${id}@test>\r\nSubject: ${id}\r\nFrom: a@example.org\r\n\r\n${'x'.repeat(size)}hi\r\n`,
  );

async function countMessages(accountId: number) {
  const row = await ctx.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Samples the process's RSS while `work` runs: the highest seen above the start. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; grewBytes: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await work();
    return { result, grewBytes: peak - start };
  } finally {
    clearInterval(timer);
  }
}

describe('mail import of hostile files', () => {
  it('refuses archive names leaving their folder, skips a zip bomb entry and a message without a header', async () => {
    const user = await mailUser(ctx);
    const bomb = Buffer.concat([Buffer.from('Subject: bomb\r\n\r\n'), Buffer.alloc(20 * 2 ** 20)]);
    const file = path.join(await tempDir(), 'hostile.zip');
    await fs.writeFile(
      file,
      zip([
        { name: '../../etc/evil.eml', data: message('evil1') },
        { name: '/abs/evil.eml', data: message('evil2') },
        { name: 'dir\\..\\evil.eml', data: message('evil3') },
        { name: 'bomb.eml', data: bomb },
        { name: 'nohead.eml', data: Buffer.from('just some text, no header\r\n') },
        { name: 'Fine/ok.eml', data: message('ok') },
      ]),
    );
    const done = await importFile(ctx, user.accountId, file);
    expect(done).toMatchObject({ state: 'done', stored: 1, skipped: 5 });
    expect(done.report.map((r) => [r.where, r.reason])).toEqual([
      ['../../etc/evil.eml', 'path_refused'],
      ['/abs/evil.eml', 'path_refused'],
      ['dir\\..\\evil.eml', 'path_refused'],
      ['bomb.eml', 'archive_bomb'],
      ['nohead.eml', 'no_headers'],
    ]);
    expect(await countMessages(user.accountId)).toBe(1);
  });

  it('refuses a zip whose entries would unpack to more than an import may hold, before unpacking', async () => {
    const user = await mailUser(ctx);
    const file = path.join(await tempDir(), 'huge.zip');
    await fs.writeFile(
      file,
      zip(
        Array.from({ length: 20 }, (_, i) => ({
          name: `m${i}.eml`,
          data: message(`m${i}`),
          declaredSize: 0xfffffff0,
        })),
      ),
    );
    const done = await importFile(ctx, user.accountId, file);
    expect(done).toMatchObject({ state: 'failed', error: 'import_archive_too_large', stored: 0 });
  });

  it('stops a .tar.gz that unpacks to far more than its size, keeping what it stored before', async () => {
    const user = await mailUser(ctx);
    const file = path.join(await tempDir(), 'bomb.tar.gz');
    const pack = tar.pack();
    const written = pipeline(pack, zlib.createGzip(), createWriteStream(file));
    pack.entry({ name: 'first.eml' }, message('first'));
    const size = 400 * 2 ** 20;
    const zeros = pack.entry({ name: 'zeros.eml', size });
    await pipeline(
      Readable.from(
        (function* () {
          for (let left = size; left > 0; left -= 2 ** 20) yield Buffer.alloc(Math.min(left, 2 ** 20));
        })(),
      ),
      zeros,
    );
    pack.entry({ name: 'after.eml' }, message('after'));
    pack.finalize();
    await written;
    expect((await fs.stat(file)).size).toBeLessThan(2 * 2 ** 20);
    const done = await importFile(ctx, user.accountId, file);
    expect(done).toMatchObject({ state: 'failed', error: 'import_archive_bomb', stored: 1 });
    expect(await countMessages(user.accountId)).toBe(1);
  });

  it('skips a message over the limit without holding it, stores garbage headers, and reports a truncated end', async () => {
    const user = await mailUser(ctx);
    const file = path.join(await tempDir(), 'hostile.mbox');
    const out = createWriteStream(file);
    out.write(mbox([message('before')]));
    out.write('From huge@xxx Wed Apr 16 12:00:00 +0000 2025\r\nSubject: huge\r\n\r\n');
    const line = Buffer.from(`${'y'.repeat(998)}\r\n`);
    const lines = Buffer.concat(Array.from({ length: 1024 }, () => line));
    for (let written = 0; written < IMPORT_MESSAGE_MAX_BYTES * 4; written += lines.length)
      if (!out.write(lines)) await new Promise<void>((r) => out.once('drain', () => r()));
    out.write('\r\n');
    out.write(
      mbox([
        Buffer.from(
          'Subject: \xff\xfe\x80\x81 garbage \x00\x01\r\nX-\x90\x91: \xc3\x28\r\nMessage-ID: <garbage@test>\r\n\r\nbody\r\n',
          'latin1',
        ),
      ]),
    );
    out.write('From cut@xxx Wed Apr 16 12:00:00 +0000 2025\r\nSubject: cut in its hea');
    await new Promise<void>((resolve) => out.end(() => resolve()));

    const { result: done, grewBytes } = await peakGrowth(() => importFile(ctx, user.accountId, file));
    expect(done).toMatchObject({ state: 'done', stored: 2, skipped: 2 });
    expect(done.report.map((r) => r.reason)).toEqual(['too_large', 'truncated']);
    // A 200 MB message read through: never held beyond the limit (50 MB), nor twice.
    expect(grewBytes).toBeLessThan(IMPORT_MESSAGE_MAX_BYTES * 2.5);
  });

  it('stops at the quota with quota_exceeded, keeping what fitted', async () => {
    const user = await mailUser(ctx);
    const messages = Array.from({ length: 5 }, (_, i) => message(`q${i}`, 10_000));
    const { quota_used_bytes } = await ctx.db
      .selectFrom('accounts')
      .select('quota_used_bytes')
      .where('id', '=', user.accountId)
      .executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('accounts')
      .set({ quota_limit_bytes: Number(quota_used_bytes) + 2 * messages[0]!.length + 100 })
      .where('id', '=', user.accountId)
      .execute();
    const file = path.join(await tempDir(), 'quota.mbox');
    await fs.writeFile(file, mbox(messages));
    const done = await importFile(ctx, user.accountId, file);
    expect(done).toMatchObject({ state: 'failed', error: 'quota_exceeded', stored: 2 });
    expect(await countMessages(user.accountId)).toBe(2);
  });
});
