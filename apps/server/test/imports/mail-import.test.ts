import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../_util.js';
import { mailUser } from '../_actions.js';
import { corpus } from '../../../../test-support/corpus.js';
import { storedMessages, takeoutMismatches } from '../../../../test-support/takeout-check.js';
import { importFile, mbox, sha256, takeoutMbox, tarGz, tempDir, zip } from '../_imports.js';

const ctx = await createTestApp();

const stored = (accountId: number) => storedMessages(ctx.db, accountId);

const message = (subject: string, extra = '', body = 'Hello\r\n') =>
  Buffer.from(
    `Received: from a by b; Tue, 04 Mar 2025 10:00:00 +0000\r\nMessage-ID: <${subject.replace(/\W/g, '')}@test>\r\n` +
      `Subject: ${subject}\r\nFrom: a@example.org\r\nDate: Mon, 03 Mar 2025 09:00:00 +0000\r\n${extra}\r\n${body}`,
  );

describe('mail import', () => {
  it('brings a Google Takeout mbox into the right folders and labels, with its flags, dates and exact bytes', async () => {
    const user = await mailUser(ctx);
    const { files, entries } = await corpus(120);
    const file = path.join(await tempDir(), 'All mail Including Spam and Trash.mbox');
    const expected = await takeoutMbox(files, entries, file);

    const done = await importFile(ctx, user.accountId, file);
    expect(done, JSON.stringify(done)).toMatchObject({
      state: 'done',
      format: 'mbox',
      total: 120,
      done: 120,
      stored: 120,
      already_here: 0,
      skipped: 0,
      failed: 0,
    });
    // Each message once, byte for byte, in its folder and labels, with its flags and the topmost Received date.
    expect(await takeoutMismatches(ctx.db, user.accountId, expected)).toEqual([]);
    // The blob is the bytes themselves.
    const sample = expected[7]!;
    expect((await ctx.blobs.get(sha256(sample.bytes))).equals(sample.bytes)).toBe(true);

    // Again: nothing stored twice, every message "already here".
    const again = await importFile(ctx, user.accountId, file);
    expect(again).toMatchObject({ state: 'done', stored: 0, already_here: 120, done: 120 });
    expect(await stored(user.accountId)).toHaveLength(120);
  });

  it('unquotes From lines of an mboxrd, and dates a message without Received by its From line', async () => {
    const user = await mailUser(ctx);
    const body = 'From the start of a line\r\n>From quoted once\r\nplain\r\n';
    const noReceived = Buffer.from(
      'Message-ID: <plain@test>\r\nSubject: no received\r\nFrom: a@example.org\r\n\r\nhi\r\n',
    );
    const quoted = message('quoted', '', body);
    const file = path.join(await tempDir(), 'box.mbox');
    await fs.writeFile(file, mbox([quoted, noReceived], 'Sat Feb  1 08:30:00 2020'));
    const done = await importFile(ctx, user.accountId, file);
    expect(done).toMatchObject({ state: 'done', stored: 2 });
    const rows = await stored(user.accountId);
    const q = rows.find((r) => r.message_id === 'quoted@test')!;
    expect(q.blob_hash).toBe(sha256(quoted));
    expect(q.system).toBe('inbox');
    const plain = rows.find((r) => r.message_id === 'plain@test')!;
    expect(new Date(plain.received_at).toISOString()).toBe('2020-02-01T08:30:00.000Z');
  });

  it('imports a zip and a tar.gz of .eml files into the folder tree of their paths, and a single .eml', async () => {
    const user = await mailUser(ctx);
    const dir = await tempDir();
    const entries = [
      { name: 'Inbox/one.eml', data: message('zip one') },
      { name: 'Work/Projects/two.eml', data: message('zip two', 'Status: O\r\n') },
      { name: 'Sent/three.eml', data: message('zip three', 'X-Mozilla-Status: 0005\r\n') },
      { name: 'top.eml', data: message('zip top') },
      { name: 'notes.txt', data: Buffer.from('not mail') },
    ];
    await fs.writeFile(path.join(dir, 'mail.zip'), zip(entries));
    const fromZip = await importFile(ctx, user.accountId, path.join(dir, 'mail.zip'));
    expect(fromZip).toMatchObject({ state: 'done', format: 'zip', stored: 4, skipped: 1 });
    expect(fromZip.report).toEqual([{ item: 5, where: 'notes.txt', reason: 'not_a_message', stored: false }]);
    const rows = await stored(user.accountId);
    const of = (id: string) => rows.find((r) => r.message_id === id)!;
    expect(of('zipone@test').system).toBe('inbox');
    expect(of('ziptop@test').system).toBe('inbox');
    expect(of('ziptwo@test')).toMatchObject({ folder: 'INBOX.Work.Projects', seen: false });
    expect(of('zipthree@test')).toMatchObject({ system: 'sent', seen: true, flagged: true });

    await tarGz(
      [
        { name: 'Archive 2019/Receipts/a.eml', data: message('tar a') },
        { name: 'Archive 2019/b.eml', data: message('tar b') },
        // The same message as the zip's: already here.
        { name: 'again/one.eml', data: message('zip one') },
      ],
      path.join(dir, 'mail.tar.gz'),
    );
    const fromTar = await importFile(ctx, user.accountId, path.join(dir, 'mail.tar.gz'));
    expect(fromTar).toMatchObject({ state: 'done', format: 'tar.gz', stored: 2, already_here: 1 });
    const after = await stored(user.accountId);
    expect(after.find((r) => r.message_id === 'tara@test')!.folder).toBe('INBOX.Archive 2019.Receipts');

    await fs.writeFile(path.join(dir, 'single.eml'), message('single'));
    const single = await importFile(ctx, user.accountId, path.join(dir, 'single.eml'));
    expect(single).toMatchObject({ state: 'done', format: 'eml', stored: 1 });
  });

  it('stores a message once beside the same message SMTP brought, and reports it already here', async () => {
    const user = await mailUser(ctx);
    const delivered = await user.deliver({ from: 'b@example.org', subject: 'came by smtp', text: 'hi' });
    const raw = await ctx.blobs.get(
      (
        await ctx.db
          .selectFrom('messages')
          .select('blob_hash')
          .where('id', '=', delivered.id)
          .executeTakeFirstOrThrow()
      ).blob_hash,
    );
    const file = path.join(await tempDir(), 'one.eml');
    await fs.writeFile(file, raw);
    const done = await importFile(ctx, user.accountId, file);
    expect(done).toMatchObject({ state: 'done', stored: 0, already_here: 1 });
    expect(await stored(user.accountId)).toHaveLength(1);
  });
});
