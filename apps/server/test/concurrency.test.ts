import { describe, expect, it } from 'vitest';
import { createTestApp } from './_util.js';
import { call, counters, mailUser } from './_actions.js';

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
          return call(ann.browser, 'POST', 'messages/move', {
            destination_id: pick(folders),
            folder_messages,
          });
        if (kind === 'delete') return call(ann.browser, 'POST', 'messages/delete', { folder_messages });
        return call(ann.browser, 'POST', 'messages/mark', {
          flag: pick(['seen', 'unseen', 'flagged', 'unflagged']),
          folder_messages,
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
