import { describe, expect, it } from 'vitest';
import { createTestApp } from '../_util.js';
import { counters, mailUser } from '../_actions.js';
import { api } from '../_client.js';

const ctx = await createTestApp();

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describe('concurrent actions on the same messages', () => {
  it('50 parallel moves, deletes and marks neither lose nor duplicate a message and keep counters true', async () => {
    const ann = await mailUser(ctx);
    const extra = await ctx.db
      .insertInto('folders')
      .values(
        ['A', 'B'].map((n) => ({
          account_id: ann.accountId,
          name: `INBOX.${n}`,
          system: null,
          uidvalidity: 1,
        })),
      )
      .returning('id')
      .execute();
    const folders = [ann.folders.inbox, ann.folders.trash, ann.folders.junk, ...extra.map((f) => f.id)];
    const initial = 30;
    for (let i = 0; i < initial; i++)
      await ann.deliver({ from: 'x@example.com', subject: `m${i}`, text: 'concurrency' });

    const next = random(42);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    let deletedForGood = 0;
    for (let round = 0; round < 3; round++) {
      // Every request names messages where they were when the round began: many race for the same rows.
      const rows = await ctx.db
        .selectFrom('messages')
        .select(['folder_id', 'uid'])
        .where('account_id', '=', ann.accountId)
        .execute();
      const someMessages = () => {
        const chosen = rows.filter(() => next() < 0.3);
        const byFolder = new Map<number, number[]>();
        for (const r of chosen) byFolder.set(r.folder_id, [...(byFolder.get(r.folder_id) ?? []), r.uid]);
        return [...byFolder].map(([folder_id, message_uids]) => ({ folder_id, message_uids }));
      };
      const requests = Array.from({ length: 50 }, () => {
        const folder_messages = someMessages();
        if (!folder_messages.length) return Promise.resolve({ status: 200, body: {} });
        const kind = pick(['move', 'delete', 'mark']);
        if (kind === 'move')
          return api(ann.browser, 'moveMessages', {
            body: {
              destination_id: pick(folders),
              folder_messages,
            },
          });
        if (kind === 'delete') return api(ann.browser, 'deleteMessages', { body: { folder_messages } });
        return api(ann.browser, 'markMessages', {
          body: {
            flag: pick(['seen', 'unseen', 'flagged', 'unflagged']),
            folder_messages,
          },
        });
      });
      for (const r of await Promise.all(requests)) {
        expect(r.status).toBe(200);
        for (const d of r.body.deleted ?? []) deletedForGood += d.message_uids.length;
      }
    }

    const remaining = await ctx.db
      .selectFrom('messages')
      .select(['id', 'folder_id', 'uid', 'size'])
      .where('account_id', '=', ann.accountId)
      .execute();
    expect(remaining.length + deletedForGood).toBe(initial);
    expect(deletedForGood).toBeGreaterThan(0);
    expect(new Set(remaining.map((m) => `${m.folder_id}/${m.uid}`)).size).toBe(remaining.length);
    for (const folder of folders) {
      const c = await counters(ctx, folder);
      expect(c.stored).toEqual(c.truth);
      for (const m of remaining.filter((r) => r.folder_id === folder)) expect(m.uid).toBeLessThan(c.uidnext);
    }
    const account = await ctx.db
      .selectFrom('accounts')
      .select('quota_used_bytes')
      .where('id', '=', ann.accountId)
      .executeTakeFirstOrThrow();
    expect(account.quota_used_bytes).toBe(remaining.reduce((sum, m) => sum + m.size, 0));
  });
});

describe('deleting a folder while messages move into it', () => {
  it('150 races of folder deletion against a move into it: no deadlock, no 500, quota and counters exact', async () => {
    const bo = await mailUser(ctx, 'Bo Race');
    const rounds = 150;
    for (let i = 0; i < rounds; i++)
      await bo.deliver({ from: 'x@example.com', subject: `race ${i}`, text: 'deadlock probe' });
    const inbox = await ctx.db
      .selectFrom('messages')
      .select('uid')
      .where('folder_id', '=', bo.folders.inbox)
      .orderBy('uid')
      .execute();
    const statuses = new Map<number, number>();
    for (let i = 0; i < rounds; i++) {
      const created = await api(bo.browser, 'createFolder', {
        body: {
          folder: { name: `Race ${i}`, parent_id: null },
        },
      });
      expect(created.status).toBe(200);
      const folderId = created.body.folder.id as number;
      const [moved, deleted] = await Promise.all([
        api(bo.browser, 'moveMessages', {
          body: {
            destination_id: folderId,
            folder_messages: [{ folder_id: bo.folders.inbox, message_uids: [inbox[i]!.uid] }],
          },
        }),
        api(bo.browser, 'deleteFolder', { params: { id: folderId } }),
      ]);
      for (const r of [moved, deleted]) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        // Either it happened, or the folder was already gone: a catalogue answer, never a 500.
        if (r.status !== 200) expect(r.body.error.meta.i8s).toBe('entity_not_found');
      }
      expect(deleted.status).toBe(200);
    }
    expect(statuses.get(500)).toBeUndefined();

    const remaining = await ctx.db
      .selectFrom('messages')
      .select(['folder_id', 'size'])
      .where('account_id', '=', bo.accountId)
      .execute();
    // Every message is either still in the Inbox (its move lost the race) or went with its folder.
    expect(remaining.every((m) => m.folder_id === bo.folders.inbox)).toBe(true);
    const c = await counters(ctx, bo.folders.inbox);
    expect(c.stored).toEqual(c.truth);
    const account = await ctx.db
      .selectFrom('accounts')
      .select('quota_used_bytes')
      .where('id', '=', bo.accountId)
      .executeTakeFirstOrThrow();
    expect(account.quota_used_bytes).toBe(remaining.reduce((sum, m) => sum + m.size, 0));
  });
});
