import { beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { MailEvent } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { counters, mailUser, type MailUser } from '../_actions.js';
import { runFilterBatch } from '../../src/filters/index.js';
import { LiveClient, listenWs } from '../_ws.js';
import { api } from '../_client.js';

const ctx = await createTestApp();
const runDeps = { ...ctx, log: pino({ level: 'silent' }) };
let ann: MailUser;
let invoicesId: number;
let financeId: number;

const script =
  'require ["fileinto","imap4flags"];\n' +
  'if address :is "from" "billing@example.com" { addflag ["\\\\Seen","Finance"]; fileinto "Invoices"; }\n' +
  'elsif header :contains "subject" "[SPAM]" { discard; }\n';

beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Apply');
  invoicesId = (
    await api(ann.browser, 'createFolder', { body: { folder: { name: 'Invoices', parent_id: null } } })
  ).body.folder.id;
  financeId = (
    await api(ann.browser, 'createLabel', { body: { label: { name: 'finance', search_content: 'x' } } })
  ).body.label.id;
  for (let i = 1; i <= 3; i++) await ann.deliver({ from: 'billing@example.com', subject: `Invoice ${i}` });
  await ann.deliver({ from: 'friend@example.com', subject: 'Lunch?' });
  await ann.deliver({ from: 'spam@example.com', subject: '[SPAM] offer' });
});

/** Works the queued runs through, batch by batch, as the job does. */
async function drain() {
  while (await runFilterBatch(runDeps));
}

const placeOf = async (subject: string) =>
  ctx.db
    .selectFrom('messages')
    .select(['folder_id', 'seen', 'labels'])
    .where('account_id', '=', ann.accountId)
    .where('subject', '=', subject)
    .executeTakeFirstOrThrow();

describe('applying a filter to a folder', () => {
  it('a dry run counts what would happen and changes nothing', async () => {
    const started = await api(ann.browser, 'applyFilter', {
      body: {
        script,
        folder_id: ann.folders.inbox,
        dry_run: true,
      },
    });
    expect(started.status).toBe(200);
    expect(started.body.run).toMatchObject({ state: 'queued', total: 5, done: 0, dry_run: true });
    await drain();
    const { body } = await api(ann.browser, 'filterRun', { params: { id: started.body.run.id } });
    expect(body.run).toMatchObject({
      state: 'done',
      done: 5,
      counts: { matched: 4, moved: 3, flagged: 3, labelled: 3, deleted: 1, skipped: 0 },
      error: null,
    });
    expect(await placeOf('Invoice 1')).toEqual({ folder_id: ann.folders.inbox, seen: false, labels: [] });
  });

  it('for real it moves, marks and labels the matching messages, discards to Trash, and says so live', async () => {
    const events: MailEvent[] = [];
    ctx.events.subscribe(ann.accountId, (e) => events.push(e));
    const started = await api(ann.browser, 'applyFilter', {
      body: {
        script,
        folder_id: ann.folders.inbox,
        dry_run: false,
      },
    });
    await drain();
    expect(await placeOf('Invoice 2')).toEqual({ folder_id: invoicesId, seen: true, labels: [financeId] });
    expect((await placeOf('Lunch?')).folder_id).toBe(ann.folders.inbox);
    expect((await placeOf('[SPAM] offer')).folder_id).toBe(ann.folders.trash);
    const runs = events.filter((e) => e.event === 'filterRun');
    expect(runs.at(-1)).toMatchObject({
      run: { id: started.body.run.id, state: 'done', counts: { moved: 3 } },
    });
    expect(events).toContainEqual(expect.objectContaining({ event: 'move', folder_id: ann.folders.inbox }));
    for (const folder of [ann.folders.inbox, invoicesId, ann.folders.trash]) {
      const c = await counters(ctx, folder);
      expect(c.stored).toEqual(c.truth);
    }
  });

  it('one unfinished run per folder; another account cannot see a run', async () => {
    const first = await api(ann.browser, 'applyFilter', {
      body: {
        script: 'keep;',
        folder_id: invoicesId,
        dry_run: true,
      },
    });
    expect(first.status).toBe(200);
    const second = await api(ann.browser, 'applyFilter', {
      body: {
        script: 'keep;',
        folder_id: invoicesId,
        dry_run: false,
      },
    });
    expect(second.status).toBe(409);
    expect(second.body.error.meta.i8s).toBe('filter_run_active');
    const bob = await mailUser(ctx, 'Bob Apply');
    expect((await api(bob.browser, 'filterRun', { params: { id: first.body.run.id } })).status).toBe(404);
    const foreignFolder = await api(bob.browser, 'applyFilter', {
      body: {
        script: 'keep;',
        folder_id: invoicesId,
        dry_run: true,
      },
    });
    expect(foreignFolder.status).toBe(404);
    const broken = await api(ann.browser, 'applyFilter', {
      body: {
        script: 'if {',
        folder_id: ann.folders.inbox,
        dry_run: true,
      },
    });
    expect(broken.body.error.meta.i8s).toBe('sieve_syntax_error');
    await drain();
  });

  it('works in batches by UID and resumes from its stored place, as after a restart', async () => {
    const carol = await mailUser(ctx, 'Carol Apply');
    for (let i = 1; i <= 5; i++) await carol.deliver({ from: 'a@example.com', subject: `Note ${i}` });
    const started = await api(carol.browser, 'applyFilter', {
      body: {
        script: 'require "imap4flags";\naddflag "\\\\Flagged";',
        folder_id: carol.folders.inbox,
        dry_run: false,
      },
    });
    expect(await runFilterBatch({ ...runDeps, batchSize: 2 })).toBe(true);
    const after = await api(carol.browser, 'filterRun', { params: { id: started.body.run.id } });
    expect(after.body.run).toMatchObject({ state: 'running', done: 2, counts: { flagged: 2 } });
    // Another process (another set of parts) picks it up where it stopped.
    while (await runFilterBatch({ ...ctx, log: pino({ level: 'silent' }), batchSize: 2 }));
    const done = await api(carol.browser, 'filterRun', { params: { id: started.body.run.id } });
    expect(done.body.run).toMatchObject({ state: 'done', done: 5, counts: { flagged: 5, matched: 5 } });
    const flagged = await ctx.db
      .selectFrom('messages')
      .select('flagged')
      .where('account_id', '=', carol.accountId)
      .execute();
    expect(flagged.map((m) => m.flagged)).toEqual([true, true, true, true, true]);
  });

  it('two processes working one run at once apply each batch once', async () => {
    const dan = await mailUser(ctx, 'Dan Apply');
    for (let i = 1; i <= 6; i++) await dan.deliver({ from: 'a@example.com', subject: `Memo ${i}` });
    const trashed = await api(dan.browser, 'applyFilter', {
      body: {
        script: 'discard;',
        folder_id: dan.folders.inbox,
        dry_run: false,
      },
    });
    const process = async () => {
      const deps = { ...ctx, log: pino({ level: 'silent' }), batchSize: 2 };
      while (await runFilterBatch(deps));
    };
    await Promise.all([process(), process()]);
    const { body } = await api(dan.browser, 'filterRun', { params: { id: trashed.body.run.id } });
    expect(body.run).toMatchObject({ state: 'done', done: 6, counts: { deleted: 6, matched: 6 } });
    const c = await counters(ctx, dan.folders.trash);
    expect(c.stored).toEqual({ unread: 6, total: 6 });
    expect(c.truth).toEqual(c.stored);
  });

  it("the run's progress reaches the owner's websocket", async () => {
    const url = await listenWs(ctx.app);
    const erin = await mailUser(ctx, 'Erin Apply');
    await erin.deliver({ from: 'a@example.com', subject: 'Hello' });
    const live = await LiveClient.open(url, { token: erin.browser.cookies.get('mr_sid')! });
    await live.greet();
    const started = await api(erin.browser, 'applyFilter', {
      body: {
        script: 'keep;',
        folder_id: erin.folders.inbox,
        dry_run: true,
      },
    });
    await drain();
    const deadline = Date.now() + 5000;
    while (
      !live.received().some((e) => e.event === 'filterRun' && e.run.state === 'done') &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 20));
    expect(live.received().filter((e) => e.event === 'filterRun')).toContainEqual({
      event: 'filterRun',
      run: expect.objectContaining({ id: started.body.run.id, state: 'done', done: 1 }),
    });
  });
  it('a message it cannot read is left where it is and counted as skipped', async () => {
    const bob = await mailUser(ctx, 'Bob Skipped');
    await bob.deliver({ from: 'billing@example.com', subject: 'Readable' });
    await bob.deliver({ from: 'billing@example.com', subject: 'Lost blob' });
    // As if the store had lost the message's bytes.
    await ctx.db
      .updateTable('messages')
      .set({ blob_hash: 'f'.repeat(64) })
      .where('account_id', '=', bob.accountId)
      .where('subject', '=', 'Lost blob')
      .execute();
    await api(bob.browser, 'createFolder', { body: { folder: { name: 'Invoices', parent_id: null } } });
    const started = await api(bob.browser, 'applyFilter', {
      body: {
        script,
        folder_id: bob.folders.inbox,
        dry_run: false,
      },
    });
    await drain();
    const { body } = await api(bob.browser, 'filterRun', { params: { id: started.body.run.id } });
    expect(body.run).toMatchObject({ state: 'done', done: 2, counts: { matched: 1, moved: 1, skipped: 1 } });
    const lost = await ctx.db
      .selectFrom('messages')
      .select('folder_id')
      .where('account_id', '=', bob.accountId)
      .where('subject', '=', 'Lost blob')
      .executeTakeFirstOrThrow();
    expect(lost.folder_id).toBe(bob.folders.inbox);
  });

  it('a run never shows more done than in all, even when mail arrives while it works', async () => {
    const started = await api(ann.browser, 'applyFilter', {
      body: {
        script,
        folder_id: ann.folders.inbox,
        dry_run: true,
      },
    });
    const before = started.body.run.total as number;
    expect(await runFilterBatch({ ...runDeps, batchSize: 1 })).toBe(true);
    for (const n of [1, 2, 3]) await ann.deliver({ from: 'friend@example.com', subject: `Late ${n}` });
    while (await runFilterBatch({ ...runDeps, batchSize: 1 })) {
      const running = (await api(ann.browser, 'filterRun', { params: { id: started.body.run.id } })).body.run;
      expect(running.total).toBeGreaterThanOrEqual(running.done);
    }
    const done = (await api(ann.browser, 'filterRun', { params: { id: started.body.run.id } })).body.run;
    expect(done).toMatchObject({ state: 'done', done: before + 3, total: before + 3 });
  });
});
