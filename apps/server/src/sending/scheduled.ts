import type { CancelScheduledResponse, MailEvent, Ok, ScheduledSendsResponse } from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import type { Config } from '../config.js';
import { transact, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit } from '../core/events/index.js';
import { enqueueJob, wakeJobs, type JobOutcome } from '../core/jobs/index.js';
import { releaseScheduledCopies, withdrawScheduledCopy } from '../mailbox/index.js';
import type { SendingDeps } from './outbox.js';
import {
  countWaiting,
  deleteScheduled,
  insertScheduled,
  lockScheduled,
  lockScheduledEach,
  markScheduledSent,
  setSendAt,
  waitingSends,
  type ScheduledRow,
} from './scheduled.repository.js';
import { deliverQueued, finishSends, type SendHold, type SendParts } from './send-finish.js';

/**
 * Scheduled sends (issue 31): undo send is a send scheduled a few seconds ahead, held on the server, so closing the
 * tab neither loses nor blocks it. The message's copy waits in Scheduled and its row in `scheduled_sends`, with a
 * job of the queue (kind SCHEDULED_SEND, key the row's id) due at its time. Release, cancel and "send now" each lock
 * the row first: the release finishes the send and marks the row sent, a cancel deletes it — whichever locks first
 * decides, and the other finds what it decided (a cancel after the release is refused with send_already_sent).
 */
export const SCHEDULED_SEND = 'scheduled-send';

/**
 * A process killed while releasing leaves its claimed items to another once this lease runs out (renewed every
 * third of it while it works). Short, so a dead node delays a due send by seconds; safe, since a release decides under the
 * row's lock and a second claim of a released item finds it sent and does nothing.
 */
export const SCHEDULED_LEASE_MS = 2_000;

/** Refuses a new scheduled send when the account has SCHEDULED_MAX waiting. */
export async function checkScheduledRoom(trx: Trx, config: Config, accountId: number): Promise<void> {
  if ((await countWaiting(trx, accountId)) >= config.timeControls.scheduledMax)
    throw new DomainError('scheduled_limit_reached');
}

/** Keeps what the send needs to finish later and queues its job, in the send's transaction. */
export async function scheduleSend(
  trx: Trx,
  parts: SendParts,
  hold: SendHold,
  copyRowId: number,
  encrypted: boolean,
): Promise<number> {
  const id = await insertScheduled(trx, {
    account_id: parts.accountId,
    message_row_id: copyRowId,
    purpose: hold.purpose,
    send_at: hold.sendAt,
    blob_hash: parts.outbound.hash,
    size: parts.outbound.size,
    message_id: parts.messageId,
    envelope_from: parts.envelopeFrom,
    recipients: JSON.stringify(parts.recipients),
    source_row_id: parts.sourceRowId,
    upload_ids: parts.uploadIds,
    encrypted,
    remind_after_days: parts.remindAfterDays,
  });
  await enqueueJob(trx, {
    kind: SCHEDULED_SEND,
    key: String(id),
    delayMs: hold.sendAt.getTime() - Date.now(),
  });
  return id;
}

/**
 * This process looks for due sends at `at` as well as at its polls: a held message then goes within milliseconds of
 * its time when the process that held it is still up (another process's poll catches it otherwise).
 */
export function wakeScheduled(at: Date): void {
  const ms = at.getTime() - Date.now();
  if (ms > 3600_000) return;
  setTimeout(() => wakeJobs(SCHEDULED_SEND), Math.max(0, ms) + 5).unref();
}

/**
 * The jobs: the sends of a due claim go, together. One transaction locks their rows (in id order), moves the copies
 * from Scheduled to Sent, finishes the sends (outbox rows, \\Answered, uploads, follow-ups) and marks the rows sent —
 * a few statements for the whole claim rather than a transaction of ~16 for each; then local recipients get theirs.
 * A copy no longer in Scheduled (deleted or moved away by hand) means the member took it back: nothing is sent. A
 * row already sent or gone (a cancel won, or another claim released it) is done. Should the batch fail (a deadlock
 * with a member's action, a bad row), each send is tried alone, so one cannot hold the others back. Answers an
 * outcome for each id, in order.
 */
export async function releaseScheduledSends(deps: SendingDeps, ids: number[]): Promise<JobOutcome[]> {
  if (ids.length > 1) {
    try {
      return await releaseTogether(deps, ids);
    } catch (err) {
      deps.log.warn({ err, count: ids.length }, 'releasing scheduled sends together failed; one by one');
    }
  }
  const outcomes: JobOutcome[] = [];
  for (const id of ids) {
    outcomes.push(
      await releaseTogether(deps, [id]).then(
        ([outcome]) => outcome,
        (err: unknown): JobOutcome => {
          deps.log.warn({ err, id }, 'a scheduled send failed; retried');
          return { retry: err instanceof Error ? err.message : String(err) };
        },
      ),
    );
  }
  return outcomes;
}

/** One scheduled send's job (releaseScheduledSends of one; a failure throws). */
export async function releaseScheduledSend(deps: SendingDeps, id: number): Promise<JobOutcome> {
  const [outcome] = await releaseTogether(deps, [id]);
  return outcome;
}

async function releaseTogether(deps: SendingDeps, ids: number[]): Promise<JobOutcome[]> {
  const outcomes = new Map<number, JobOutcome>();
  const queued = await transact(deps.db, async (trx) => {
    const now = Date.now();
    const due: ScheduledRow[] = [];
    for (const row of await lockScheduledEach(trx, ids)) {
      if (row.state !== 'waiting') continue;
      // Sent early by "send now" only through send_at; a job due early (an enqueue's earlier time) waits for it.
      const early = row.send_at.getTime() - now;
      if (early > 500) outcomes.set(row.id, { again: early });
      else due.push(row);
    }
    if (!due.length) return [];
    const { released, events } = await releaseScheduledCopies(
      trx,
      due
        .filter((r) => r.message_row_id !== null)
        .map((r) => ({ accountId: r.account_id, messageRowId: r.message_row_id! })),
    );
    const going = due.filter((r) => r.message_row_id !== null && released.has(r.message_row_id));
    const withdrawn = due.filter((r) => !going.includes(r));
    await deleteScheduled(
      trx,
      withdrawn.map((r) => r.id),
    );
    const finished = await finishSends(
      trx,
      going.map((row) => ({
        parts: {
          accountId: row.account_id,
          messageId: row.message_id,
          outbound: { hash: row.blob_hash, size: row.size },
          envelopeFrom: row.envelope_from,
          recipients: row.recipients,
          sourceRowId: row.source_row_id,
          uploadIds: row.upload_ids,
          remindAfterDays: row.remind_after_days,
        },
        sentRowId: row.message_row_id!,
      })),
    );
    await markScheduledSent(
      trx,
      going.map((r) => r.id),
    );
    // Each account's events ride the transaction: published once it commits.
    const byAccount = new Map<number, MailEvent[]>();
    const add = (accountId: number, list: MailEvent[]) =>
      byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), ...list]);
    for (const row of withdrawn)
      add(row.account_id, [{ event: 'scheduledSend', id: row.id, state: 'cancelled' }]);
    for (const [accountId, list] of events) add(accountId, list);
    going.forEach((row, i) =>
      add(row.account_id, [...finished[i]!.events, { event: 'scheduledSend', id: row.id, state: 'sent' }]),
    );
    for (const [accountId, list] of byAccount) await emit(trx, deps, accountId, list);
    return finished.flatMap((f) => f.queued);
  });
  if (queued.length) await deliverQueued(deps, queued);
  return ids.map((id) => outcomes.get(id));
}

/**
 * POST scheduled-sends/{id}/cancel: Undo, Cancel or Edit. The copy goes back to Drafts (to open in compose), or is
 * removed when it is an encrypted message's notice. Refused with send_already_sent once the send has gone.
 */
export async function cancelScheduledSend(
  deps: SendingDeps,
  principal: Principal,
  id: number,
): Promise<CancelScheduledResponse> {
  const accountId = principal.accountId;
  return transact(deps.db, async (trx) => {
    const row = await lockScheduled(trx, id, accountId);
    if (!row) throw new DomainError('entity_not_found');
    if (row.state === 'sent') throw new DomainError('send_already_sent');
    const { draft, events } = await withdrawScheduledCopy(trx, accountId, row.message_row_id, !row.encrypted);
    await deleteScheduled(trx, [id]);
    await emit(trx, deps, accountId, [...events, { event: 'scheduledSend', id, state: 'cancelled' }]);
    return { draft };
  });
}

/** POST scheduled-sends/{id}/send: it goes now (its job is due at once). */
export async function sendScheduledNow(deps: SendingDeps, principal: Principal, id: number): Promise<Ok> {
  await transact(deps.db, async (trx) => {
    const row = await lockScheduled(trx, id, principal.accountId);
    if (!row) throw new DomainError('entity_not_found');
    if (row.state === 'sent') throw new DomainError('send_already_sent');
    await setSendAt(trx, id, new Date());
    await enqueueJob(trx, { kind: SCHEDULED_SEND, key: String(id) });
  });
  wakeJobs(SCHEDULED_SEND);
  return { ok: true };
}

/** GET scheduled-sends. */
export async function listScheduledSends(
  deps: SendingDeps,
  principal: Principal,
): Promise<ScheduledSendsResponse> {
  const rows = await waitingSends(deps.db, principal.accountId);
  return {
    scheduled: rows.map((r) => ({
      id: Number(r.id),
      folder_id: Number(r.folder_id),
      uid: r.uid,
      purpose: r.purpose,
      send_at: new Date(r.send_at).toISOString(),
    })),
  };
}
