import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { sql } from 'kysely';
import { createTestApp } from '../_util.js';
import { counters, mailUser } from '../_actions.js';
import { compose, until } from '../_sending.js';
import { api } from '../_client.js';
import { releaseScheduledSend, withFilterActions } from '../../src/sending/index.js';
import { startSendingJobs } from '../../src/sending/index.js';
import { ingest, parseMessage, putMessageBlobs } from '../../src/mailbox/index.js';
import { composeRaw } from '../_mail.js';

// Sends wait for their time here: the jobs of main.ts run, looking every 100 ms.
const ctx = await createTestApp({ env: { DUE_POLL_MS: '100', SCHEDULED_MAX: '5' } });
const { db } = ctx;
const deps = withFilterActions({ ...ctx, log: pino({ level: 'silent' }) });
const ann = await mailUser(ctx, 'Ann Lee');
const bob = await mailUser(ctx, 'Bo Chen');

async function inFolder(folderId: number, subject: string) {
  return db
    .selectFrom('messages')
    .select(['id', 'uid', 'seen', 'draft', 'received_at', 'returned_for', 'returned_at'])
    .where('folder_id', '=', folderId)
    .where('subject', '=', subject)
    .execute();
}

const outboxRows = async (subject: string) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from outbox o
      join messages m on m.message_id = o.message_id where m.subject = ${subject}`.execute(db)
  ).rows[0]!.n;

async function setUndo(seconds: number) {
  const { status } = await api(ann.browser, 'changeSettings', { body: { undo_send_seconds: seconds } });
  expect(status).toBe(200);
}

describe('undo send: every sent message waits on the server for the member’s hold', () => {
  it('held: the copy waits in Scheduled, the recipient sees nothing; Undo puts it back in Drafts', async () => {
    await setUndo(30);
    const subject = `Held ${Math.random()}`;
    const { status, body } = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { subject }),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.scheduled).toMatchObject({ purpose: 'undo' });
    const left = new Date(body.scheduled.send_at).getTime() - Date.now();
    expect(left).toBeGreaterThan(15_000);
    expect(left).toBeLessThanOrEqual(30_000);
    expect(body).toMatchObject({ delivered: 0, queued: 0, message: { folder_id: ann.folders.scheduled } });
    expect(await inFolder(ann.folders.scheduled, subject)).toHaveLength(1);
    expect(await inFolder(bob.folders.inbox, subject)).toHaveLength(0);
    expect(await inFolder(ann.folders.sent, subject)).toHaveLength(0);
    expect(await outboxRows(subject)).toBe(0);

    const listed = await api(ann.browser, 'scheduledSends');
    expect(listed.body.scheduled).toContainEqual(
      expect.objectContaining({
        id: body.scheduled.id,
        uid: body.message.uid,
        folder_id: ann.folders.scheduled,
      }),
    );

    const undo = await api(ann.browser, 'cancelScheduledSend', { params: { id: body.scheduled.id } });
    expect(undo.status).toBe(200);
    expect(undo.body.draft.folder_id).toBe(ann.folders.draft);
    const [draft] = await inFolder(ann.folders.draft, subject);
    expect(draft).toMatchObject({ uid: undo.body.draft.uid, draft: true });
    expect(await inFolder(ann.folders.scheduled, subject)).toHaveLength(0);
    // Another tab's Undo (or a second click) finds nothing to take back.
    const again = await api(ann.browser, 'cancelScheduledSend', { params: { id: body.scheduled.id } });
    expect(again.code).toBe('entity_not_found');
    expect(await inFolder(bob.folders.inbox, subject)).toHaveLength(0);
  });

  it('after its time it goes by itself: Sent copy, recipient’s Inbox, and a late Undo is refused', async () => {
    await setUndo(5);
    const jobs = startSendingJobs(deps);
    try {
      const subject = `Goes ${Math.random()}`;
      const { body } = await api(ann.browser, 'sendMessage', {
        body: compose(ann.email, [bob.email], { subject }),
      });
      const sendAt = new Date(body.scheduled.send_at).getTime();
      const [arrived] = await until(async () => {
        const rows = await inFolder(bob.folders.inbox, subject);
        return rows.length ? rows : undefined;
      }, 15_000);
      expect(arrived).toBeDefined();
      const late = Date.now() - sendAt;
      expect(late).toBeGreaterThanOrEqual(-500);
      expect(late).toBeLessThan(3_000);
      const [sent] = await inFolder(ann.folders.sent, subject);
      expect(sent!.seen).toBe(true);
      expect(await inFolder(ann.folders.scheduled, subject)).toHaveLength(0);
      const undo = await api(ann.browser, 'cancelScheduledSend', { params: { id: body.scheduled.id } });
      expect(undo.status).toBe(409);
      expect(undo.code).toBe('send_already_sent');
    } finally {
      await jobs.stop();
    }
  });

  it('Undo raced against the release 200 times: never both taken back and delivered', async () => {
    await setUndo(30);
    let undone = 0;
    let sent = 0;
    for (let i = 0; i < 200; i++) {
      const subject = `Race ${i} ${Math.random()}`;
      const { body } = await api(ann.browser, 'sendMessage', {
        body: compose(ann.email, [bob.email], { subject }),
      });
      const id = body.scheduled.id as number;
      await db.updateTable('scheduled_sends').set({ send_at: new Date() }).where('id', '=', id).execute();
      const [undo] = await Promise.all([
        api(ann.browser, 'cancelScheduledSend', { params: { id } }),
        releaseScheduledSend(deps, id),
      ]);
      const delivered = (await inFolder(bob.folders.inbox, subject)).length;
      const inDrafts = (await inFolder(ann.folders.draft, subject)).length;
      const inSent = (await inFolder(ann.folders.sent, subject)).length;
      if (undo.status === 200) {
        undone++;
        expect([delivered, inSent, inDrafts, await outboxRows(subject)]).toEqual([0, 0, 1, 0]);
      } else {
        sent++;
        expect(undo.code).toBe('send_already_sent');
        expect([delivered, inSent, inDrafts]).toEqual([1, 1, 0]);
      }
    }
    console.log(`undo won ${undone}, the release won ${sent}`);
    expect(undone + sent).toBe(200);
  }, 180_000);
});

describe('send later', () => {
  it('goes to Scheduled for its time; Send now sends it; a time past or too far, or an encrypted one, is refused', async () => {
    await setUndo(0);
    const subject = `Later ${Math.random()}`;
    const sendAt = new Date(Date.now() + 3 * 86_400_000).toISOString().replace('Z', '+00:00');
    const { body } = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { subject, send_at: sendAt }),
    });
    expect(body.scheduled).toMatchObject({ purpose: 'later', send_at: new Date(sendAt).toISOString() });
    const [copy] = await inFolder(ann.folders.scheduled, subject);
    expect(copy!.received_at.toISOString()).toBe(new Date(sendAt).toISOString());

    const jobs = startSendingJobs(deps);
    try {
      expect((await api(ann.browser, 'sendScheduledNow', { params: { id: body.scheduled.id } })).status).toBe(
        200,
      );
      await until(async () => (await inFolder(bob.folders.inbox, subject)).length > 0, 10_000);
      expect(await inFolder(ann.folders.sent, subject)).toHaveLength(1);
    } finally {
      await jobs.stop();
    }

    for (const send_at of [
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 400 * 86_400_000).toISOString(),
    ]) {
      const refused = await api(ann.browser, 'sendMessage', {
        body: compose(ann.email, [bob.email], { send_at }),
      });
      expect(refused.code).toBe('time_out_of_range');
    }
    const badZone = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { send_at: '2027-01-01T09:00:00+25:00' }),
    });
    expect(badZone.code).toBe('invalid_request_params');
    const encrypted = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], {
        send_at: new Date(Date.now() + 3600_000).toISOString(),
        encrypt: true,
      }),
    });
    expect(encrypted.code).toBe('scheduled_encrypted');
  });

  it('at most SCHEDULED_MAX wait per account', async () => {
    await setUndo(0);
    const waiting = (await api(ann.browser, 'scheduledSends')).body.scheduled.length as number;
    const send_at = new Date(Date.now() + 86_400_000).toISOString();
    for (let i = waiting; i < 5; i++)
      expect(
        (await api(ann.browser, 'sendMessage', { body: compose(ann.email, [bob.email], { send_at }) }))
          .status,
      ).toBe(200);
    const refused = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { send_at }),
    });
    expect(refused.code).toBe('scheduled_limit_reached');
    for (const s of (await api(ann.browser, 'scheduledSends')).body.scheduled)
      await api(ann.browser, 'cancelScheduledSend', { params: { id: s.id } });
  });

  it('nothing moves into Scheduled or Snoozed by hand', async () => {
    const subject = `Manual ${Math.random()}`;
    await bob.deliver({ from: ann.email, subject, text: 'x' });
    const [m] = await inFolder(bob.folders.inbox, subject);
    for (const destination of [bob.folders.scheduled, bob.folders.snoozed]) {
      const moved = await api(bob.browser, 'moveMessages', {
        body: {
          destination_id: destination,
          folder_messages: [{ folder_id: bob.folders.inbox, message_uids: [m!.uid] }],
        },
      });
      expect(moved.code).toBe('forbidden');
    }
  });
});

/** A reply to `messageId` arriving from outside, through the one ingest (as SMTP stores it). */
async function ingestReply(accountId: number, subject: string, messageId: string) {
  const raw = await composeRaw({
    from: 'carol@elsewhere.example',
    to: 'x@mailroom.test',
    subject: `Re: ${subject}`,
    text: 'a reply',
    inReplyTo: messageId,
    references: [messageId],
  });
  const source = { parsed: await parseMessage(raw), blobs: await putMessageBlobs(ctx.blobs, raw) };
  await ingest(db, ctx.blobs, source, [{ accountId, copies: [{ folder: 'inbox' }] }]);
}

describe('follow-up reminders', () => {
  it('with no reply by its time the sent message comes back to the Inbox, unread, with a note', async () => {
    await setUndo(0);
    const subject = `Nudge ${Math.random()}`;
    const { body } = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, ['dave@elsewhere.example'], { subject, remind_after_days: 3 }),
    });
    expect(body.scheduled).toBeNull();
    const [row] = await db
      .selectFrom('follow_ups')
      .selectAll()
      .where('account_id', '=', ann.accountId)
      .execute();
    expect(row!.due_at.getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    await db
      .updateTable('follow_ups')
      .set({ due_at: new Date(Date.now() - 1000) })
      .execute();
    await db.updateTable('jobs').set({ run_at: new Date() }).where('kind', '=', 'returns').execute();
    const jobs = startSendingJobs(deps);
    try {
      const [back] = await until(async () => {
        const rows = await inFolder(ann.folders.inbox, subject);
        return rows.length ? rows : undefined;
      }, 10_000);
      expect(back).toMatchObject({ seen: false, returned_for: 'follow_up' });
      expect(await inFolder(ann.folders.sent, subject)).toHaveLength(1);
    } finally {
      await jobs.stop();
    }
  });

  it('a reply that names the sent message ends the reminder', async () => {
    await setUndo(0);
    const subject = `Answered ${Math.random()}`;
    await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, ['dave@elsewhere.example'], { subject, remind_after_days: 1 }),
    });
    const [row] = await db
      .selectFrom('follow_ups')
      .selectAll()
      .where('account_id', '=', ann.accountId)
      .execute();
    await ingestReply(ann.accountId, subject, row!.message_id);
    expect(
      await db.selectFrom('follow_ups').selectAll().where('account_id', '=', ann.accountId).execute(),
    ).toEqual([]);
  });
});

describe('snooze', () => {
  const later = () => new Date(Date.now() + 3600_000).toISOString();

  it('puts a message away in Snoozed with when it returns; unsnooze brings it back as it was', async () => {
    const subject = `Snooze ${Math.random()}`;
    await bob.deliver({ from: ann.email, subject, text: 'x' }, { seen: true });
    const [m] = await inFolder(bob.folders.inbox, subject);
    const until = later();
    const snoozed = await api(bob.browser, 'snoozeMessages', {
      body: { folder_messages: [{ folder_id: bob.folders.inbox, message_uids: [m!.uid] }], until },
    });
    expect(snoozed.status, JSON.stringify(snoozed.body)).toBe(200);
    const [away] = await inFolder(bob.folders.snoozed, subject);
    expect(away).toBeDefined();
    const page = await api(bob.browser, 'folderMessages', { params: { folder_id: bob.folders.snoozed } });
    expect(page.body.messages.find((x: { uid: number }) => x.uid === away!.uid).snoozed_until).toBe(until);
    // The reader says it too (it looks snoozes up for a message in Snoozed only).
    const opened = await api(bob.browser, 'message', {
      params: { folder_id: bob.folders.snoozed, uid: away!.uid },
    });
    expect(opened.body.message.snoozed_until).toBe(until);

    const back = await api(bob.browser, 'unsnoozeMessages', {
      body: { folder_messages: [{ folder_id: bob.folders.snoozed, message_uids: [away!.uid] }] },
    });
    expect(back.status).toBe(200);
    const [home] = await inFolder(bob.folders.inbox, subject);
    expect(home).toMatchObject({ seen: true, returned_for: null });
  });

  it('at its time it comes back to the top of the Inbox, unread, with a note', async () => {
    const subject = `Wake ${Math.random()}`;
    await bob.deliver(
      { from: ann.email, subject, text: 'x' },
      { seen: true, receivedAt: new Date(Date.now() - 86_400_000) },
    );
    const [m] = await inFolder(bob.folders.inbox, subject);
    await api(bob.browser, 'snoozeMessages', {
      body: { folder_messages: [{ folder_id: bob.folders.inbox, message_uids: [m!.uid] }], until: later() },
    });
    await db
      .updateTable('snoozes')
      .set({ until: new Date(Date.now() - 1000) })
      .execute();
    await db.updateTable('jobs').set({ run_at: new Date() }).where('kind', '=', 'returns').execute();
    const jobs = startSendingJobs(deps);
    try {
      const [home] = await until(async () => {
        const rows = await inFolder(bob.folders.inbox, subject);
        return rows.length ? rows : undefined;
      }, 10_000);
      expect(home).toMatchObject({ seen: false, returned_for: 'snooze' });
      const page = await api(bob.browser, 'folderMessages', { params: { folder_id: bob.folders.inbox } });
      expect(page.body.messages[0]).toMatchObject({ subject, returned: { for: 'snooze' } });
    } finally {
      await jobs.stop();
    }
  });

  it('a snoozed conversation comes back whole when new mail joins it', async () => {
    const subject = `Thread ${Math.random()}`;
    await bob.deliver({
      from: ann.email,
      subject,
      text: 'one',
      messageId: `<one-${subject.length}@x.example>`,
    });
    const [first] = await inFolder(bob.folders.inbox, subject);
    await api(bob.browser, 'snoozeMessages', {
      body: {
        folder_messages: [{ folder_id: bob.folders.inbox, message_uids: [first!.uid] }],
        until: later(),
      },
    });
    expect(await inFolder(bob.folders.snoozed, subject)).toHaveLength(1);
    await ingestReply(bob.accountId, subject, `<one-${subject.length}@x.example>`);
    expect(await inFolder(bob.folders.snoozed, subject)).toHaveLength(0);
    expect(await inFolder(bob.folders.inbox, subject)).toHaveLength(1);
    expect(await inFolder(bob.folders.inbox, `Re: ${subject}`)).toHaveLength(1);
  });

  it('10,000 messages snoozed in one request go together; more uids than a request takes are a clear 400', async () => {
    const cleo = await mailUser(ctx, 'Cleo Bulk');
    await cleo.deliver({ from: ann.email, subject: 'Bulk 0', text: 'x' });
    // 9,999 more like it, cloned in SQL (in its conversation: 10,000 conversations of one are a minute's insert on
    // PGlite, the thread_at trigger's; a snooze names them all either way).
    await sql`
      insert into messages (account_id, folder_id, uid, thread_id, blob_hash, size, message_id, subject,
        thread_subject, from_email, from_name, addresses, preview, seen, received_at)
      select m.account_id, m.folder_id, m.uid + n.i, m.thread_id, m.blob_hash, m.size, m.message_id, 'Bulk ' || n.i,
        m.thread_subject, m.from_email, m.from_name, m.addresses, m.preview, m.seen, m.received_at
      from messages m, generate_series(1, 9999) as n(i)
      where m.folder_id = ${cleo.folders.inbox}`.execute(db);
    await sql`
      update folders set uidnext = uidnext + 9999, total_count = total_count + 9999,
        unread_count = unread_count + 9999 where id = ${cleo.folders.inbox}`.execute(db);
    const uids = (
      await db.selectFrom('messages').select('uid').where('folder_id', '=', cleo.folders.inbox).execute()
    ).map((m) => m.uid);
    expect(uids).toHaveLength(10_000);

    const tooMany = await api(cleo.browser, 'snoozeMessages', {
      body: {
        folder_messages: [{ folder_id: cleo.folders.inbox, message_uids: [...uids, Math.max(...uids) + 1] }],
        until: later(),
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.code).toBe('invalid_request_params');
    expect(await counters(ctx, cleo.folders.inbox)).toMatchObject({ stored: { total: 10_000 } });

    const started = Date.now();
    const snoozed = await api(cleo.browser, 'snoozeMessages', {
      body: { folder_messages: [{ folder_id: cleo.folders.inbox, message_uids: uids }], until: later() },
    });
    const took = Date.now() - started;
    expect(snoozed.status, JSON.stringify(snoozed.body).slice(0, 500)).toBe(200);
    expect(snoozed.body.moved).toHaveLength(10_000);
    console.log(`10,000 messages snoozed in one request in ${took} ms`);
    expect(took).toBeLessThan(30_000);
    const [inbox, away] = [
      await counters(ctx, cleo.folders.inbox),
      await counters(ctx, cleo.folders.snoozed),
    ];
    expect(inbox.stored).toEqual({ unread: 0, total: 0 });
    expect(away.stored).toEqual(away.truth);
    expect(away.stored.total).toBe(10_000);
    const kept = await sql<{ n: number }>`
      select count(*)::int as n from snoozes where account_id = ${cleo.accountId}`.execute(db);
    expect(kept.rows[0]!.n).toBe(10_000);
  }, 120_000);

  it('a time in the past or more than a year ahead is refused', async () => {
    const subject = `Bad ${Math.random()}`;
    await bob.deliver({ from: ann.email, subject, text: 'x' });
    const [m] = await inFolder(bob.folders.inbox, subject);
    for (const until of [
      new Date(Date.now() - 1000).toISOString(),
      new Date(Date.now() + 400 * 86_400_000).toISOString(),
    ]) {
      const refused = await api(bob.browser, 'snoozeMessages', {
        body: { folder_messages: [{ folder_id: bob.folders.inbox, message_uids: [m!.uid] }], until },
      });
      expect(refused.code).toBe('time_out_of_range');
    }
  });
});
