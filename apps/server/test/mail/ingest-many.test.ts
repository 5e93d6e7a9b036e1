import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cleanup, createTestDb } from '../_util.js';
import { composeRaw, createAccount } from '../_mail.js';
import { FsBlobStore } from '../../src/core/blobs/index.js';
import { transact } from '../../src/core/db/index.js';
import {
  ensureLabels,
  ensureFolderPath,
  ingest,
  ingestMany,
  IngestFailed,
  parseMessage,
  putMessageBlobs,
  systemFolder,
  type IngestSource,
  type IngestTarget,
} from '../../src/mailbox/index.js';

const db = await createTestDb();
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-blobs-'));
cleanup(() => fs.rm(dir, { recursive: true, force: true }));
const blobs = new FsBlobStore(dir);

type Spec = {
  mail: Parameters<typeof composeRaw>[0];
  folder: 'inbox' | 'work';
  seen?: boolean;
  flagged?: boolean;
  label?: boolean;
  receivedAt?: Date;
};

const day = (n: number) => new Date(Date.now() - n * 86_400_000);

/**
 * A batch spanning threads: replies (by In-Reply-To, by References, by a "Re:" subject between the same people) to
 * messages earlier in the same batch and to one stored before it, the same bytes twice, two folders, read and
 * unread, a label.
 */
async function batch(): Promise<Spec[]> {
  const from = 'bob@example.com';
  const to = 'me@mailroom.test';
  return [
    {
      mail: { from, to, subject: 'Plan', text: 'a', messageId: '<plan@x>' },
      folder: 'inbox',
      receivedAt: day(5),
    },
    {
      mail: { from, to, subject: 'Other', text: 'b', inReplyTo: '<plan@x>', messageId: '<r1@x>' },
      folder: 'work',
    },
    {
      mail: { from, to, subject: 'Deeper', text: 'c', references: ['<plan@x>', '<r1@x>'] },
      folder: 'inbox',
      seen: true,
    },
    { mail: { from, to, subject: 'Re: Plan', text: 'd' }, folder: 'work', flagged: true, label: true },
    { mail: { from, to, subject: 'Older', text: 'e', inReplyTo: '<before@x>' }, folder: 'inbox' },
    {
      mail: { from: 'eve@example.com', to, subject: 'Fresh', text: 'f', messageId: '<fresh@x>' },
      folder: 'inbox',
    },
    {
      mail: { from: 'eve@example.com', to, subject: 'Fresh', text: 'f', messageId: '<fresh@x>' },
      folder: 'inbox',
    },
    {
      mail: { from: 'eve@example.com', to, subject: 'Поиск', text: 'ёлка и текст' },
      folder: 'work',
      label: true,
    },
  ];
}

/** One account's mail after the batch, with threads as the positions of the messages sharing them. */
async function mailboxOf(accountId: number) {
  const rows = await db
    .selectFrom('messages as m')
    .innerJoin('message_contents as c', 'c.message_id', 'm.id')
    .innerJoin('folders as f', 'f.id', 'm.folder_id')
    .select([
      'f.name',
      'm.uid',
      'm.subject',
      'm.thread_id',
      'm.seen',
      'm.flagged',
      'm.size',
      'm.blob_hash',
      'm.received_at',
      'm.thread_at',
      sql<number>`cardinality(m.labels)`.as('labels'),
      sql<string>`c.search_vector::text`.as('vector'),
    ])
    .where('m.account_id', '=', accountId)
    .orderBy('m.id')
    .execute();
  const firstOfThread = new Map<number, number>();
  const messages = rows.map(({ thread_id, ...row }, i) => {
    if (!firstOfThread.has(Number(thread_id))) firstOfThread.set(Number(thread_id), i);
    return { ...row, thread: firstOfThread.get(Number(thread_id)) };
  });
  const folders = await db
    .selectFrom('folders')
    .select(['name', 'uidnext', 'unread_count', 'total_count'])
    .where('account_id', '=', accountId)
    .orderBy('name')
    .execute();
  const { quota_used_bytes } = await db
    .selectFrom('accounts')
    .select('quota_used_bytes')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { messages, folders, quota: quota_used_bytes };
}

/** The batch for an account: a message stored before it (the one "Older" answers), then the batch's inputs. */
async function prepare(accountId: number, specs: Spec[], raws: Buffer[]) {
  const inbox = (await systemFolder(db, accountId, 'inbox')).id;
  const work = (await ensureFolderPath(db, accountId, 'INBOX.Work')).id;
  const label = (await transact(db, (trx) => ensureLabels(trx, accountId, ['Tag']))).get('tag')!;
  const before = await composeRaw({
    from: 'bob@example.com',
    subject: 'Before',
    date: new Date('2026-01-01T00:00:00Z'),
    text: 'z',
    messageId: '<before@x>',
  });
  await ingest(
    db,
    blobs,
    { parsed: await parseMessage(before), blobs: await putMessageBlobs(blobs, before) },
    [{ accountId, copies: [{ folder: inbox }] }],
  );
  return Promise.all(
    specs.map(async (s, i): Promise<{ source: IngestSource; targets: IngestTarget[] }> => {
      const raw = raws[i]!;
      const source = {
        parsed: await parseMessage(raw),
        blobs: await putMessageBlobs(blobs, raw),
        ...(s.receivedAt ? { receivedAt: s.receivedAt } : {}),
      };
      const flags = { seen: !!s.seen, flagged: !!s.flagged };
      const copy = { folder: s.folder === 'inbox' ? inbox : work, flags, labels: s.label ? [label] : [] };
      return { source, targets: [{ accountId, copies: [copy] }] };
    }),
  );
}

/** The batch's bytes, the same for every account (the same message twice: the same bytes twice). */
async function compose(specs: Spec[]): Promise<Buffer[]> {
  const date = new Date('2026-01-02T03:04:05Z');
  const raws: Buffer[] = [];
  for (const [i, s] of specs.entries())
    raws.push(
      i > 0 && s.mail.messageId && s.mail.messageId === specs[i - 1]!.mail.messageId
        ? raws[i - 1]!
        : await composeRaw({ date, ...s.mail }),
    );
  return raws;
}

describe('ingestMany: a batch stored at once', () => {
  it('stores a batch spanning threads (replies inside it, the same bytes twice) as ingest stores each in turn', async () => {
    const one = await createAccount(db);
    const many = await createAccount(db);
    const specs = await batch();
    const raws = await compose(specs);
    const oneByOne = [];
    for (const input of await prepare(one.id, specs, raws))
      oneByOne.push(await transact(db, (trx) => ingest(trx, blobs, input.source, input.targets)));
    const inputs = await prepare(many.id, specs, raws);
    const results = await transact(db, (trx) => ingestMany(trx, blobs, inputs));

    const byOne = await mailboxOf(one.id);
    const byMany = await mailboxOf(many.id);
    const comparable = (m: Awaited<ReturnType<typeof mailboxOf>>) => ({
      ...m,
      // Received now (no date given): the two runs differ by the time between them.
      messages: m.messages.map(({ received_at, thread_at, ...rest }) => ({
        ...rest,
        dated: received_at.getTime() < Date.now() - 86_400_000,
        threadAtIsLatest: thread_at.getTime() >= received_at.getTime(),
      })),
    });
    expect(comparable(byMany)).toEqual(comparable(byOne));
    // The threads themselves: the replies joined "Plan", "Older" joined the message stored before the batch.
    const thread = (subject: string) => byMany.messages.find((m) => m.subject === subject)!.thread;
    expect([thread('Other'), thread('Deeper'), thread('Re: Plan')]).toEqual([
      thread('Plan'),
      thread('Plan'),
      thread('Plan'),
    ]);
    expect(thread('Older')).toBe(thread('Before'));
    expect(byMany.messages.filter((m) => m.subject === 'Fresh').map((m) => m.uid)).toHaveLength(2);
    expect(byMany.messages.find((m) => m.subject === 'Поиск')!.vector).toContain('елка');
    // Each message's events (its UID, the folder's counters just after it) as ingest tells them one by one.
    const counters = (all: typeof results) =>
      all.map((r) =>
        r.events.flatMap(([, e]) =>
          e.map((x) =>
            'uids' in x ? x.uids : [x.event, 'unseen' in x ? x.unseen : 0, 'total' in x ? x.total : 0],
          ),
        ),
      );
    expect(counters(results)).toEqual(counters(oneByOne));
    // Each message's result: its copy, and the folder's counters just after it, as ingest reports them.
    expect(results).toHaveLength(specs.length);
    const last = results[results.length - 1]!;
    expect(last.accounts[0]!.stored).toHaveLength(1);
    const work = byMany.folders.find((f) => f.name === 'INBOX.Work')!;
    expect(last.events[0]![1]).toContainEqual({
      event: 'updateMailbox',
      folder_id: last.accounts[0]!.stored[0]!.folderId,
      unseen: work.unread_count,
      total: work.total_count,
    });
  });

  it('a batch over the quota stores nothing and names the account', async () => {
    const account = await createAccount(db);
    const specs = await batch();
    const inputs = await prepare(account.id, specs, await compose(specs));
    const before = await mailboxOf(account.id);
    const sizes = inputs.reduce((sum, i) => sum + i.source.blobs.raw.size, 0);
    await db
      .updateTable('accounts')
      .set({ quota_limit_bytes: sql<number>`quota_used_bytes + ${sizes - 1}` })
      .where('id', '=', account.id)
      .execute();
    const failed = await transact(db, (trx) => ingestMany(trx, blobs, inputs)).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(IngestFailed);
    expect(failed).toMatchObject({ accountId: account.id, cause: { code: 'quota_exceeded' } });
    expect(await mailboxOf(account.id)).toEqual(before);
  });
});
