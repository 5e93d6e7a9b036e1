import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { Browser, createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { apiRequest } from '../_client.js';
import { createAccount } from '../_mail.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import { parseMessage, storeMessage, systemFolder } from '../../src/mailbox/index.js';

const ctx = await createTestApp();
const { app, db, blobs } = ctx;

/** Raw bytes as an MTA hands them over (CRLF), with lines a plain mbox would take for separators. */
function rawMessage(n: number, extra = ''): Buffer {
  return Buffer.from(
    `From: Sender ${n} <sender${n}@example.com>\r\nTo: ann@mailroom.test\r\nSubject: Message ${n}\r\n` +
      `Message-ID: <m${n}-${Math.random()}@example.com>\r\nDate: Sat, 28 Nov 2026 10:00:00 +0000\r\n\r\n` +
      `Body of ${n}.\r\n${extra}`,
  );
}

async function storeRaw(user: { accountId: number }, folderId: number, raw: Buffer, receivedAt?: Date) {
  const { message } = await storeMessage(db, blobs, {
    accountId: user.accountId,
    folderId,
    raw,
    parsed: await parseMessage(raw),
    ...(receivedAt ? { receivedAt } : {}),
  });
  return { ...message, raw };
}

/** A plain mboxrd reader, written apart from the writer: split at `From ` lines, unquote one `>`, drop the blank line. */
function readMboxrd(file: Buffer): { fromLine: string; bytes: Buffer }[] {
  const text = file.toString('latin1');
  const starts = [...text.matchAll(/^From [^\n]*\n/gm)].map((m) => ({ at: m.index, line: m[0] }));
  return starts.map((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.at : text.length;
    const body = text.slice(s.at + s.line.length, end);
    expect(body.endsWith('\n')).toBe(true);
    const unquoted = body.slice(0, -1).replace(/^>(>*From )/gm, '$1');
    return { fromLine: s.line.trimEnd(), bytes: Buffer.from(unquoted, 'latin1') };
  });
}

function readZip(file: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function createFolder(user: MailUser, name: string, parentId?: number): Promise<number> {
  const r = await apiRequest(user.browser, 'createFolder', {
    body: { folder: { name, parent_id: parentId ?? null } },
  });
  expect(r.statusCode).toBe(200);
  return (r.json() as { folder: { id: number } }).folder.id;
}

describe('exporting a folder as mbox', () => {
  it('gives back every message byte for byte, lines starting with From and >From included, oldest first', async () => {
    const ann = await mailUser(ctx);
    const tricky = rawMessage(
      1,
      'From here on, a line a plain mbox would split at.\r\n>From quoted already\r\n>>From twice\r\nFrom\r\n',
    );
    const stored = [
      await storeRaw(ann, ann.folders.inbox, tricky, new Date('2026-11-01T10:00:00Z')),
      await storeRaw(ann, ann.folders.inbox, rawMessage(2), new Date('2026-11-02T10:00:00Z')),
      await storeRaw(
        ann,
        ann.folders.inbox,
        rawMessage(3, 'From \r\n>From\r\n'),
        new Date('2026-11-03T10:00:00Z'),
      ),
    ];
    await storeRaw(ann, ann.folders.sent, rawMessage(4));
    const r = await apiRequest(ann.browser, 'exportFolder', {
      params: { folder_id: ann.folders.inbox },
      query: { format: 'mbox' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/mbox');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="Inbox \d{4}-\d\d-\d\d\.mbox"/);
    const messages = readMboxrd(r.rawPayload);
    expect(messages).toHaveLength(3);
    for (const [i, message] of messages.entries())
      expect(message.bytes.toString('latin1')).toBe(stored[i]!.raw.toString('latin1'));
    expect(messages[0]!.fromLine).toBe('From sender1@example.com Sun Nov  1 10:00:00 2026');
    expect(r.rawPayload.toString('latin1')).toContain('\n>From here on');
    expect(r.rawPayload.toString('latin1')).toContain('\n>>From quoted already');
  });

  it('keeps the order and the bytes when small messages (read a batch at a time) and large ones (streamed) mix', async () => {
    const ann = await mailUser(ctx);
    const big = 'From a large message: a line a plain mbox would split at.\r\n' + 'x'.repeat(998) + '\r\n';
    const stored = [];
    for (let i = 0; i < 7; i++)
      stored.push(
        await storeRaw(
          ann,
          ann.folders.inbox,
          rawMessage(i, i % 3 === 1 ? big.repeat(300) : ''),
          new Date(Date.UTC(2026, 10, 1, i)),
        ),
      );
    expect(stored.filter((m) => m.raw.length > 128 * 1024)).toHaveLength(2);
    for (const format of ['mbox', 'zip'] as const) {
      const r = await apiRequest(ann.browser, 'exportFolder', {
        params: { folder_id: ann.folders.inbox },
        query: { format },
      });
      const got =
        format === 'mbox'
          ? readMboxrd(r.rawPayload).map((m) => m.bytes)
          : [...(await readZip(r.rawPayload)).values()];
      expect(got.map((b) => b.toString('latin1'))).toEqual(stored.map((m) => m.raw.toString('latin1')));
    }
  });

  it("names a Russian folder's file in UTF-8 (RFC 5987) beside an ASCII fallback", async () => {
    const ann = await mailUser(ctx);
    const folder = await createFolder(ann, 'Работа');
    await storeRaw(ann, folder, rawMessage(1));
    const r = await apiRequest(ann.browser, 'exportFolder', { params: { folder_id: folder }, query: {} });
    expect(r.statusCode).toBe(200);
    const disposition = r.headers['content-disposition'] as string;
    expect(disposition).toMatch(/filename="______ \d{4}-\d\d-\d\d\.mbox"/);
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Работа')}%20`);
  });

  it("refuses another account's folder and an unknown format", async () => {
    const ann = await mailUser(ctx);
    const bob = await mailUser(ctx, 'Bob Ray');
    const theirs = await apiRequest(ann.browser, 'exportFolder', {
      params: { folder_id: bob.folders.inbox },
      query: {},
    });
    expect(theirs.statusCode).toBe(404);
    const r = await app.inject({
      method: 'GET',
      url: `/api/v1/export/folders/${ann.folders.inbox}?format=rar`,
      cookies: Object.fromEntries(ann.browser.cookies),
    });
    expect(r.statusCode).toBe(400);
  });
});

describe('exporting as a zip of .eml files', () => {
  it('puts each message under its folder path, nested and Russian names kept, the bytes as stored', async () => {
    const ann = await mailUser(ctx);
    const work = await createFolder(ann, 'Работа');
    const projects = await createFolder(ann, 'Проекты', work);
    const a = await storeRaw(ann, ann.folders.inbox, rawMessage(1));
    const b = await storeRaw(ann, projects, rawMessage(2, 'From inside\r\n'));
    const c = await storeRaw(ann, work, rawMessage(3));
    const r = await apiRequest(ann.browser, 'exportMailbox', { query: { format: 'zip' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/zip');
    const entries = await readZip(r.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      [
        `Inbox/${a.uid} Message 1.eml`,
        `Работа/Проекты/${b.uid} Message 2.eml`,
        `Работа/${c.uid} Message 3.eml`,
      ].sort(),
    );
    expect(entries.get(`Работа/Проекты/${b.uid} Message 2.eml`)!.equals(b.raw)).toBe(true);
    expect(entries.get(`Inbox/${a.uid} Message 1.eml`)!.equals(a.raw)).toBe(true);
  });

  it('keeps the names of messages with the same subject apart', async () => {
    const ann = await mailUser(ctx);
    const raw = rawMessage(7);
    const one = await storeRaw(ann, ann.folders.inbox, raw);
    const two = await storeRaw(ann, ann.folders.inbox, raw);
    const r = await apiRequest(ann.browser, 'exportFolder', {
      params: { folder_id: ann.folders.inbox },
      query: { format: 'zip' },
    });
    const names = [...(await readZip(r.rawPayload)).keys()];
    expect(names.sort()).toEqual([`Inbox/${one.uid} Message 7.eml`, `Inbox/${two.uid} Message 7.eml`].sort());
  });
});

describe('exporting a label, a search and the whole mailbox', () => {
  it('a label gives exactly the messages carrying it', async () => {
    const ann = await mailUser(ctx);
    const labelled = await storeRaw(ann, ann.folders.inbox, rawMessage(1));
    const other = await storeRaw(ann, ann.folders.sent, rawMessage(2));
    await storeRaw(ann, ann.folders.inbox, rawMessage(3));
    // The label's saved search finds this one without the keyword, as the label's list does.
    const found = await storeRaw(ann, ann.folders.inbox, rawMessage(4, 'about the wombat\r\n'));
    const created = await apiRequest(ann.browser, 'createLabel', {
      body: { label: { name: 'Tax', search_content: 'wombat' } },
    });
    expect(created.statusCode).toBe(200);
    const labelId = (created.json() as { label: { id: number } }).label.id;
    for (const m of [labelled, other]) {
      const marked = await apiRequest(ann.browser, 'markMessages', {
        body: {
          flag: 'label',
          label_id: labelId,
          folder_messages: [{ folder_id: m.folderId, message_uids: [m.uid] }],
        },
      });
      expect(marked.statusCode).toBe(200);
    }
    const r = await apiRequest(ann.browser, 'exportLabel', { params: { label_id: labelId }, query: {} });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toMatch(/filename="Tax /);
    const exported = readMboxrd(r.rawPayload).map((m) => m.bytes.toString('latin1'));
    expect(exported).toEqual([labelled.raw, other.raw, found.raw].map((b) => b.toString('latin1')));
    const list = await apiRequest(ann.browser, 'labelMessages', { params: { label_id: labelId }, query: {} });
    expect((list.json() as { total: number }).total).toBe(exported.length);
  });

  it('a search gives exactly its matches, in every folder', async () => {
    const ann = await mailUser(ctx);
    const hit1 = await storeRaw(ann, ann.folders.inbox, rawMessage(1, 'the wombat report\r\n'));
    const hit2 = await storeRaw(ann, ann.folders.sent, rawMessage(2, 'another wombat\r\n'));
    await storeRaw(ann, ann.folders.inbox, rawMessage(3, 'nothing here\r\n'));
    const r = await apiRequest(ann.browser, 'exportSearch', {
      query: { format: 'zip', q: JSON.stringify({ text: 'wombat' }) },
    });
    expect(r.statusCode).toBe(200);
    const entries = await readZip(r.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      [`Inbox/${hit1.uid} Message 1.eml`, `Sent/${hit2.uid} Message 2.eml`].sort(),
    );
    const bad = await apiRequest(ann.browser, 'exportSearch', { query: { q: '{not json' } });
    expect(bad.statusCode).toBe(400);
  });

  it('the whole mailbox holds every folder’s messages', async () => {
    const ann = await mailUser(ctx);
    const folders = [ann.folders.inbox, ann.folders.sent, ann.folders.trash, await createFolder(ann, 'Old')];
    const stored = [];
    for (const [i, folder] of folders.entries()) stored.push(await storeRaw(ann, folder, rawMessage(i)));
    const r = await apiRequest(ann.browser, 'exportMailbox', { query: {} });
    expect(r.headers['content-disposition']).toMatch(/filename="mail \d{4}-\d\d-\d\d\.mbox"/);
    const got = readMboxrd(r.rawPayload)
      .map((m) => m.bytes.toString('latin1'))
      .sort();
    const want = stored.map((s) => s.raw.toString('latin1')).sort();
    expect(got).toEqual(want);
  });
});

describe('a session held to one address', () => {
  it('exports only the mail to its address, whatever it asks for', async () => {
    const owner = await createAccount(db, 'Owner');
    const alias = await db
      .insertInto('aliases')
      .values({ account_id: owner.id, email: `desk-${owner.id}@mailroom.test` })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    await grantPasswordAccess(db, owner.id, alias.email, 'desk-password');
    const inbox = await systemFolder(db, owner.id, 'inbox');
    const store = async (n: number, aliasId: number | null) => {
      const raw = rawMessage(n);
      const { message } = await storeMessage(db, blobs, {
        accountId: owner.id,
        folderId: inbox.id,
        raw,
        parsed: await parseMessage(raw),
        aliasId,
      });
      return { ...message, raw };
    };
    const toAlias = await store(1, alias.id);
    await store(2, null);
    const desk = new Browser(app);
    const signIn = await apiRequest(desk, 'passwordSignIn', {
      body: { email: alias.email, password: 'desk-password' },
    });
    expect(signIn.statusCode).toBe(200);
    for (const r of [
      await apiRequest(desk, 'exportFolder', { params: { folder_id: inbox.id }, query: {} }),
      await apiRequest(desk, 'exportFolder', { params: { folder_id: inbox.id }, query: { a_id: 'all' } }),
      await apiRequest(desk, 'exportMailbox', { query: {} }),
      await apiRequest(desk, 'exportSearch', { query: { q: JSON.stringify({ text: 'Body' }) } }),
    ]) {
      expect(r.statusCode).toBe(200);
      const messages = readMboxrd(r.rawPayload);
      expect(messages).toHaveLength(1);
      expect(messages[0]!.bytes.equals(toAlias.raw)).toBe(true);
    }
    const zip = await apiRequest(desk, 'exportMailbox', { query: { format: 'zip' } });
    expect([...(await readZip(zip.rawPayload)).keys()]).toEqual([`Inbox/${toAlias.uid} Message 1.eml`]);
    // Labels are the owner's: an address session does not see them.
    const label = await apiRequest(desk, 'exportLabel', { params: { label_id: 1 }, query: {} });
    expect(label.statusCode).toBe(403);
  });
});

describe('downloading one message', () => {
  it('serves the bytes exactly as stored, as message/rfc822 named after the subject', async () => {
    const ann = await mailUser(ctx);
    const raw = rawMessage(5, 'From the heart\r\n');
    const m = await storeRaw(ann, ann.folders.inbox, raw);
    const r = await apiRequest(ann.browser, 'messageSource', {
      params: { folder_id: String(ann.folders.inbox), uid: String(m.uid) },
    });
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.equals(raw)).toBe(true);
    expect(r.headers['content-type']).toBe('message/rfc822');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="Message 5\.eml"/);
    const bob = await mailUser(ctx, 'Bob Ray');
    const theirs = await apiRequest(bob.browser, 'messageSource', {
      params: { folder_id: String(ann.folders.inbox), uid: String(m.uid) },
    });
    expect(theirs.statusCode).toBe(404);
  });
});
