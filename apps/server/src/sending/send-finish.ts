import type { MailEvent } from '@mailroom/protocol';
import type { Trx } from '../core/db/index.js';
import { markAnswered, startFollowUp } from '../mailbox/index.js';
import { deliverNow, queueOutgoing, wakeOutbox, type SendingDeps } from './outbox.js';
import { deleteUploads } from './sending.repository.js';

/** When a message goes, if not at once: held for the undo window, or scheduled for later (issue 31). */
export interface SendHold {
  sendAt: Date;
  purpose: 'undo' | 'later';
}

/** What a send keeps to finish with once it goes (at once, or when its scheduled send is released). */
export interface SendParts {
  accountId: number;
  messageId: string;
  outbound: { hash: string; size: number };
  envelopeFrom: string;
  recipients: { address: string; local: boolean }[];
  /** The message it answers (not a forward): marked \Answered when it goes. */
  sourceRowId: number | null;
  uploadIds: number[];
  remindAfterDays: number | null;
}

/**
 * What every send does as it goes, in the caller's transaction, its copy already in Sent (row `sentRowId`): marks the
 * message it answers, queues one outbox row per recipient, drops the compose uploads and starts the follow-up asked
 * for. Answers the outbox rows and the events.
 */
export async function finishSend(trx: Trx, parts: SendParts, sentRowId: number) {
  const [done] = await finishSends(trx, [{ parts, sentRowId }]);
  return { queued: done!.queued, events: done!.events };
}

/**
 * finishSend for several sends at once (a due claim's batch, of many accounts): the outbox rows of all in one
 * statement (and their jobs in another), each account's uploads in one; \Answered and follow-ups, which few sends
 * have, one by one. Answers each send's outbox rows and events, in order.
 */
export async function finishSends(trx: Trx, sends: { parts: SendParts; sentRowId: number }[]) {
  const done = sends.map(() => ({
    queued: [] as Awaited<ReturnType<typeof queueOutgoing>>,
    events: [] as MailEvent[],
  }));
  for (const [i, { parts }] of sends.entries())
    // $Forwarded has no column in the store (flags are columns, not keywords): only replies mark.
    if (parts.sourceRowId !== null)
      done[i]!.events.push(...(await markAnswered(trx, parts.accountId, parts.sourceRowId)));
  const queued = await queueOutgoing(
    trx,
    sends.flatMap(({ parts }) =>
      parts.recipients.map((r) => ({
        account_id: parts.accountId,
        blob_hash: parts.outbound.hash,
        size: parts.outbound.size,
        message_id: parts.messageId,
        envelope_from: parts.envelopeFrom,
        recipient: r.address,
        local: r.local,
      })),
    ),
  );
  // Each row back to its send (by account, Message-ID and recipient; RETURNING promises no order).
  const key = (accountId: number, messageId: string, recipient: string) =>
    `${accountId}\n${messageId}\n${recipient}`;
  const rows = new Map<string, typeof queued>();
  for (const row of queued) {
    const k = key(Number(row.account_id), row.message_id ?? '', row.recipient);
    rows.set(k, [...(rows.get(k) ?? []), row]);
  }
  for (const [i, { parts }] of sends.entries())
    for (const r of parts.recipients) {
      const row = rows.get(key(parts.accountId, parts.messageId, r.address))?.shift();
      if (row) done[i]!.queued.push(row);
    }
  const uploads = new Map<number, number[]>();
  for (const { parts } of sends)
    if (parts.uploadIds.length)
      uploads.set(parts.accountId, [...(uploads.get(parts.accountId) ?? []), ...parts.uploadIds]);
  for (const [accountId, ids] of uploads) await deleteUploads(trx, accountId, ids);
  for (const { parts, sentRowId } of sends)
    if (parts.remindAfterDays)
      await startFollowUp(trx, {
        accountId: parts.accountId,
        messageRowId: sentRowId,
        messageId: parts.messageId,
        dueAt: new Date(Date.now() + parts.remindAfterDays * 86_400_000),
      });
  return done;
}

/**
 * After a send's transaction: local recipients get it now, so the sender learns how many did; a crash here leaves
 * the rows queued and the outbox job delivers them (the inbound path does not store a retry twice).
 */
export async function deliverQueued(deps: SendingDeps, queued: { id: number; local: boolean }[]) {
  const localIds = queued.filter((r) => r.local).map((r) => r.id);
  const outcomes = await deliverNow(deps, localIds).catch((err: unknown) => {
    // The message is sent (Sent copy and outbox rows are committed): the job does the rest.
    deps.log.error({ err }, 'immediate local delivery failed; left to the outbox job');
    return [];
  });
  const remote = queued.length - localIds.length;
  if (remote && deps.config.smtpRelayUrl) wakeOutbox();
  return { delivered: outcomes.filter((o) => o === 'sent').length, queued: remote };
}
