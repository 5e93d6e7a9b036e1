import type { ActionResult, FolderMessages, MailEvent } from '@mailroom/protocol';
import { TIME_AHEAD_MAX_DAYS } from '@mailroom/protocol';
import { transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { enqueueJob } from '../core/jobs/index.js';
import { systemFolder } from './folders.repository.js';
import {
  adjustCountersEach,
  allocateUidsEach,
  lockAccount,
  lockAccounts,
  lockMessages,
  lockSystemFolders,
  relocateEach,
  setFlag,
} from './mailbox.repository.js';
import { lockOwnFolders, moveLocked, purgeMessages, type ActionOutcome } from './message-actions.js';
import { counterEvent, groupByFolder, mergeGroups } from './purge.js';
import {
  accountsWithReturnsDue,
  arrivalReturns,
  copyMessageRow,
  insertFollowUp,
  lockMessagesIn,
  markDraft,
  markReleased,
  markReturned,
  messagePlace,
  messageRows,
  nextReturnAt,
  putSnoozes,
  takeFollowUps,
  takeSnoozes,
  threadMates,
} from './returns.repository.js';

/**
 * What comes back at a time (issue 31): a snoozed message to where it was, at the top and unread; a sent message
 * nobody answered to the Inbox. One job per account (kind RETURNS_JOB, key the account id) is due at its earliest
 * item; it returns what is due and sets itself to the next. A sweep once a minute catches an item whose job a race
 * left behind, so nothing is left waiting past its time by more than that.
 */
export const RETURNS_JOB = 'returns';

/** A moment a member picked must be ahead of now, and at most TIME_AHEAD_MAX_DAYS ahead. */
export function checkAhead(at: Date, now = new Date()): void {
  const ms = at.getTime() - now.getTime();
  if (!Number.isFinite(ms) || ms <= 0 || ms > TIME_AHEAD_MAX_DAYS * 86_400_000)
    throw new DomainError('time_out_of_range');
}

async function queueReturn(trx: Db | Trx, accountId: number, at: Date): Promise<void> {
  await enqueueJob(trx, { kind: RETURNS_JOB, key: String(accountId), delayMs: at.getTime() - Date.now() });
}

/**
 * POST messages/snooze: the messages and the rest of their conversations in the same folders go to Snoozed until
 * `until`. A message already in Snoozed keeps where it returns to and takes the new time.
 */
export async function snoozeMessages(
  db: Db,
  accountId: number,
  request: { folder_messages: FolderMessages[]; until: Date },
): Promise<ActionOutcome> {
  checkAhead(request.until);
  return transact(db, async (trx) => {
    const snoozed = await systemFolder(trx, accountId, 'snoozed');
    const named = mergeGroups(request.folder_messages);
    await lockAccount(trx, accountId);
    const locked = await lockOwnFolders(trx, accountId, [snoozed.id, ...named.map((g) => g.folder_id)]);
    const bad = [...locked.values()].some((f) => f.system === 'scheduled');
    if (bad) throw new DomainError('forbidden');
    const rows = await threadMates(trx, accountId, named);
    if (!rows.length) return { result: { ok: true, moved: [] }, events: [] };
    const groups = groupByFolder(rows);
    // Where each returns (a re-snooze keeps its first place), from the rows before the move.
    const before = new Map<number, { id: number; thread_id: number }[]>();
    for (const r of rows) {
      const list = before.get(r.folder_id);
      if (list) list.push(r);
      else before.set(r.folder_id, [r]);
    }
    const { moved, events } = await moveLocked(
      trx,
      accountId,
      snoozed.id,
      groups.filter((g) => g.folder_id !== snoozed.id),
      locked,
    );
    await putSnoozes(
      trx,
      [...before].flatMap(([folderId, rows]) =>
        rows.map((r) => ({
          message_row_id: r.id,
          account_id: accountId,
          thread_id: r.thread_id,
          return_folder_id: folderId === snoozed.id ? null : folderId,
        })),
      ),
      request.until,
    );
    await queueReturn(trx, accountId, request.until);
    return { result: { ok: true, moved } satisfies ActionResult, events };
  });
}

/**
 * Returns taken snoozes: each message back to its folder (the Inbox when that is gone), and when the time came
 * (`reason` snooze) at the top and unread with a note. A message no longer in Snoozed (moved away by hand) stays.
 */
async function returnSnoozes(
  trx: Trx,
  accountId: number,
  taken: Awaited<ReturnType<typeof takeSnoozes>>,
  reason: 'snooze' | null,
): Promise<{ moved: NonNullable<ActionResult['moved']>; events: MailEvent[] }> {
  const snoozed = await systemFolder(trx, accountId, 'snoozed');
  const here = taken.filter((t) => t.folder_id === snoozed.id);
  if (!here.length) return { moved: [], events: [] };
  const inbox = await systemFolder(trx, accountId, 'inbox');
  const byReturn = new Map<number, typeof here>();
  for (const t of here) {
    const to = t.return_folder_id ?? inbox.id;
    byReturn.set(to, [...(byReturn.get(to) ?? []), t]);
  }
  const locked = await lockOwnFolders(trx, accountId, [snoozed.id, ...byReturn.keys()]);
  const events: MailEvent[] = [];
  if (reason) {
    const rows = await lockMessages(
      trx,
      accountId,
      snoozed.id,
      here.map((t) => t.uid),
    );
    const unseen = await setFlag(
      trx,
      rows.map((r) => r.id),
      'unseen',
    );
    if (unseen.length) events.push(await counterEvent(trx, snoozed.id, 0, unseen.length));
  }
  const moved: NonNullable<ActionResult['moved']> = [];
  for (const [to, items] of byReturn) {
    const done = await moveLocked(
      trx,
      accountId,
      to,
      [{ folder_id: snoozed.id, message_uids: items.map((t) => t.uid) }],
      locked,
    );
    moved.push(...done.moved);
    events.push(...done.events);
  }
  if (reason)
    await markReturned(
      trx,
      accountId,
      here.map((t) => t.message_row_id),
      reason,
    );
  return { moved, events };
}

/** POST messages/unsnooze: the snoozed messages named go back now, as they were (no note, seen as they were). */
export async function unsnoozeMessages(
  db: Db,
  accountId: number,
  request: { folder_messages: FolderMessages[] },
): Promise<ActionOutcome> {
  return transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    const ids: number[] = [];
    for (const group of mergeGroups(request.folder_messages))
      ids.push(...(await messageRows(trx, accountId, group.folder_id, group.message_uids)).map((m) => m.id));
    const taken = await takeSnoozes(trx, accountId, { messageIds: ids });
    const { moved, events } = await returnSnoozes(trx, accountId, taken, null);
    return { result: { ok: true, moved }, events };
  });
}

/**
 * The account's returns that are due: snoozes whose time came, and follow-ups no reply answered (a copy of the sent
 * message into the Inbox, unread, with its note). Answers the events to publish and when the next item is due.
 */
export async function returnDue(
  db: Db,
  accountId: number,
): Promise<{ events: MailEvent[]; next: Date | null }> {
  const events = await transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    const now = new Date();
    const taken = await takeSnoozes(trx, accountId, { dueBy: now });
    const { events } = await returnSnoozes(trx, accountId, taken, 'snooze');
    const followed = await takeFollowUps(trx, accountId, now);
    if (followed.length) {
      const inbox = await systemFolder(trx, accountId, 'inbox');
      const uids: number[] = [];
      let counts: { unread_count: number; total_count: number } | undefined;
      for (const id of followed) {
        const copy = await copyMessageRow(trx, accountId, id, inbox.id, 'follow_up');
        if (!copy) continue;
        uids.push(copy.uid);
        counts = copy;
      }
      if (counts) {
        events.push({ event: 'new', folder_id: inbox.id, uids });
        events.push({
          event: 'updateMailbox',
          folder_id: inbox.id,
          unseen: counts.unread_count,
          total: counts.total_count,
        });
      }
    }
    return events;
  });
  return { events, next: await nextReturnAt(db, accountId) };
}

/**
 * After new mail is stored: a snoozed conversation it joins comes back at once, and a follow-up it answers is done.
 * One indexed statement for all the accounts of an ingest; a transaction only for an account with a conversation to
 * wake. Answers each such account's events.
 */
export async function afterArrival(
  db: Db,
  arrived: { accountId: number; threadIds: number[] }[],
  answers: string[],
): Promise<[number, MailEvent[]][]> {
  if (!arrived.length) return [];
  const woken = new Map<number, number[]>();
  for (const { accountId, threadId } of await arrivalReturns(db, arrived, answers))
    woken.set(accountId, [...(woken.get(accountId) ?? []), threadId]);
  const result: [number, MailEvent[]][] = [];
  for (const [accountId, threads] of woken) {
    const events = await transact(db, async (trx) => {
      await lockAccount(trx, accountId);
      const taken = await takeSnoozes(trx, accountId, { threadIds: threads });
      return (await returnSnoozes(trx, accountId, taken, 'snooze')).events;
    });
    if (events.length) result.push([accountId, events]);
  }
  return result;
}

/** A sent message to come back at `dueAt` unless a reply names it first (in the caller's transaction). */
export async function startFollowUp(
  trx: Trx,
  followUp: { accountId: number; messageRowId: number; messageId: string; dueAt: Date },
): Promise<void> {
  await insertFollowUp(trx, {
    account_id: followUp.accountId,
    message_row_id: followUp.messageRowId,
    message_id: followUp.messageId,
    due_at: followUp.dueAt,
  });
  await queueReturn(trx, followUp.accountId, followUp.dueAt);
}

/** The sweep's part: accounts with returns overdue by a minute get their job queued again (a lost race). */
export async function requeueOverdueReturns(db: Db): Promise<number> {
  const accounts = await accountsWithReturnsDue(db, new Date(Date.now() - 60_000), 1000);
  for (const accountId of accounts) await queueReturn(db, accountId, new Date());
  return accounts.length;
}

/**
 * Scheduled sends go, several at once and of several accounts (a due claim's batch): each copy leaves Scheduled for
 * Sent, placed at the moment it went. A copy no longer in Scheduled (deleted or moved away by hand: then nothing is
 * sent) is absent from `released`. In the caller's transaction, a few statements whatever the count: the accounts,
 * then their Scheduled and Sent folders, then the copies are locked, each in id order (the store's lock order).
 */
export async function releaseScheduledCopies(
  trx: Trx,
  copies: { accountId: number; messageRowId: number }[],
): Promise<{ released: Map<number, { folderId: number; uid: number }>; events: Map<number, MailEvent[]> }> {
  const released = new Map<number, { folderId: number; uid: number }>();
  const events = new Map<number, MailEvent[]>();
  if (!copies.length) return { released, events };
  const accountIds = [...new Set(copies.map((c) => c.accountId))].sort((a, b) => a - b);
  await lockAccounts(trx, accountIds);
  const folders = await lockSystemFolders(trx, accountIds, ['scheduled', 'sent']);
  const scheduledOf = new Map<number, number>();
  const sentOf = new Map<number, number>();
  for (const f of folders) (f.system === 'scheduled' ? scheduledOf : sentOf).set(f.account_id, f.id);
  const owner = new Map(copies.map((c) => [c.messageRowId, c.accountId]));
  const rows = (
    await lockMessagesIn(
      trx,
      copies.map((c) => c.messageRowId),
      [...scheduledOf.values()],
    )
  ).filter((m) => owner.get(m.id) === m.account_id && sentOf.has(m.account_id));
  if (!rows.length) return { released, events };
  const byAccount = new Map<number, typeof rows>();
  for (const m of rows) {
    const list = byAccount.get(m.account_id);
    if (list) list.push(m);
    else byAccount.set(m.account_id, [m]);
  }
  const firsts = await allocateUidsEach(
    trx,
    [...byAccount].map(([accountId, ms]) => ({ folderId: sentOf.get(accountId)!, count: ms.length })),
  );
  const moves: { id: number; folderId: number; uid: number }[] = [];
  const changes: { folderId: number; total: number; unread: number }[] = [];
  for (const [accountId, ms] of byAccount) {
    const sent = sentOf.get(accountId)!;
    const first = firsts.get(sent)!;
    ms.forEach((m, i) => moves.push({ id: m.id, folderId: sent, uid: first + i }));
    const unread = ms.filter((m) => !m.seen).length;
    changes.push({ folderId: scheduledOf.get(accountId)!, total: -ms.length, unread: -unread });
    changes.push({ folderId: sent, total: ms.length, unread });
  }
  // Scheduled to Sent teaches the spam filter nothing (queueSpamLessons: only Junk moves do).
  await relocateEach(trx, moves);
  const counts = await adjustCountersEach(trx, changes);
  await markReleased(
    trx,
    rows.map((m) => m.id),
  );
  const counter = (folderId: number): MailEvent => ({
    event: 'updateMailbox',
    folder_id: folderId,
    unseen: counts.get(folderId)!.unread_count,
    total: counts.get(folderId)!.total_count,
  });
  const movesById = new Map(moves.map((x) => [x.id, x]));
  for (const [accountId, ms] of byAccount) {
    const scheduled = scheduledOf.get(accountId)!;
    const sent = sentOf.get(accountId)!;
    const uids = ms.map((m) => movesById.get(m.id)!.uid);
    for (const m of ms) released.set(m.id, { folderId: sent, uid: movesById.get(m.id)!.uid });
    events.set(accountId, [
      { event: 'move', folder_id: scheduled, to_folder_id: sent, uids: ms.map((m) => m.uid) },
      counter(scheduled),
      { event: 'new', folder_id: sent, uids },
      counter(sent),
    ]);
  }
  return { released, events };
}

/**
 * A scheduled send is taken back: its copy goes to Drafts as a draft (`keep`), or is removed (a password-encrypted
 * message's copy is only its notice). Answers where the draft is, and the events. In the caller's transaction.
 */
export async function withdrawScheduledCopy(
  trx: Trx,
  accountId: number,
  messageRowId: number | null,
  keep: boolean,
): Promise<{ draft: { folder_id: number; uid: number } | null; events: MailEvent[] }> {
  const none = { draft: null, events: [] };
  if (messageRowId === null) return none;
  await lockAccount(trx, accountId);
  const place = await messagePlace(trx, accountId, messageRowId);
  if (!place || place.system !== 'scheduled') return none;
  if (!keep) {
    const { events } = await purgeMessages(trx, accountId, {
      folder_messages: [{ folder_id: place.folder_id, message_uids: [place.uid] }],
    });
    return { draft: null, events };
  }
  const drafts = await systemFolder(trx, accountId, 'draft');
  const locked = await lockOwnFolders(trx, accountId, [place.folder_id, drafts.id]);
  await markDraft(trx, messageRowId);
  const { moved, events } = await moveLocked(
    trx,
    accountId,
    drafts.id,
    [{ folder_id: place.folder_id, message_uids: [place.uid] }],
    locked,
  );
  const draft = moved[0] ? { folder_id: drafts.id, uid: moved[0].destination_uid } : null;
  return { draft, events };
}
