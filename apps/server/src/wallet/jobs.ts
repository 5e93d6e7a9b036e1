import { NOTIFY_MINUTES_MAX } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { startRecurringJob, type QueueWorker } from '../core/jobs/index.js';
import { findAccountById } from '../accounts/index.js';
import { accountsWithNewInboxMail, newInboxMail } from '../mailbox/index.js';
import { refundDueInvoices, unpaidInvoicesBefore } from './invoices.repository.js';
import { cancelInvoice, checkInvoice, refundInvoice, type WalletDeps } from './invoices.service.js';
import { claimMailNotice, lastMailNotice, releaseMailNotice } from './mail-notices.repository.js';

/** An unpaid invoice is asked about once it is this old (a webhook usually settled it before). */
export const RECONCILE_AFTER_MS = 60_000;
/** An invoice still unpaid this long is withdrawn at the wallet and settled 'expired'. */
export const INVOICE_TTL_MS = 24 * 3600_000;

type Log = { warn: (obj: object, msg: string) => void };

/**
 * The reconciliation job's run: every unpaid invoice older than a minute is checked at the wallet (a lost webhook,
 * a member who never clicked 'I have already paid'), and one older than a day is cancelled at the wallet and settled
 * 'expired' (or 'paid', if the wallet says it was paid meanwhile). All through checkInvoice/cancelInvoice, hence
 * settleInvoice. Stops at the first `wallet_unavailable` (the next run comes a minute later).
 */
export async function reconcileInvoices(
  deps: WalletDeps,
  now = new Date(),
  batch = 200,
): Promise<{ checked: number; settled: number }> {
  const due = await unpaidInvoicesBefore(deps.db, new Date(now.getTime() - RECONCILE_AFTER_MS), batch);
  let settled = 0;
  for (const invoice of due) {
    try {
      const result =
        now.getTime() - invoice.created_at.getTime() >= INVOICE_TTL_MS
          ? await cancelInvoice(deps, invoice.id, { source: 'reconcile', status: 'expired' })
          : await checkInvoice(deps, invoice.id, 'reconcile');
      if (result.changed) settled += 1;
    } catch (err) {
      if (err instanceof DomainError && err.code === 'wallet_unavailable') break;
      throw err;
    }
  }
  // Late payments that could not be delivered and whose refund the wallet has not confirmed yet.
  for (const invoice of await refundDueInvoices(deps.db, batch)) {
    try {
      await refundInvoice(deps, invoice.id);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'wallet_unavailable') break;
      throw err;
    }
  }
  return { checked: due.length, settled };
}

const noticeTexts = {
  en: {
    title: (n: number) => (n === 1 ? 'New mail' : `${n} new messages`),
    text: (n: number, senders: string[]) =>
      `${n === 1 ? 'A new message' : `${n} new messages`} in your Inbox${senders.length ? ` from ${senders.join(', ')}` : ''}.`,
  },
  ru: {
    title: (n: number) => (n === 1 ? 'Новое письмо' : `Новых писем: ${n}`),
    text: (n: number, senders: string[]) =>
      `${n === 1 ? 'Новое письмо' : `Новых писем: ${n}`} во «Входящих»${senders.length ? ` от ${senders.join(', ')}` : ''}.`,
  },
};

/**
 * The new-mail notices' run: each account with unseen Inbox mail that arrived since its last notice gets one notice
 * in its wallet application (the count and the newest few senders), at most once per its `notify_minutes` setting
 * (0: never). The time of the notice is claimed before it is sent (compare-and-set on `wallet_mail_notices`), so two
 * processes or two overlapping runs send it once; a notice the wallet did not take gives the claim back.
 */
export async function sendMailNotices(
  deps: Pick<WalletDeps, 'db' | 'wallet'>,
  now = new Date(),
): Promise<{ sent: number }> {
  const { db, wallet } = deps;
  const horizon = new Date(now.getTime() - NOTIFY_MINUTES_MAX * 60_000);
  let sent = 0;
  for (const accountId of await accountsWithNewInboxMail(db, horizon, 10_000)) {
    const account = await findAccountById(db, accountId);
    const minutes = account?.settings.notify_minutes ?? 0;
    if (!account || minutes <= 0) continue;
    const previous = await lastMailNotice(db, accountId);
    const windowStart = new Date(now.getTime() - minutes * 60_000);
    if (previous && previous > windowStart) continue;
    const mail = await newInboxMail(db, accountId, previous ?? windowStart);
    if (mail.count === 0) continue;
    if (!(await claimMailNotice(db, accountId, previous, now))) continue;
    const texts = noticeTexts[account.settings.language ?? 'en'];
    try {
      await wallet.notify(account.member_id, {
        kind: 'new_mail',
        title: texts.title(mail.count),
        text: texts.text(mail.count, mail.senders),
      });
      sent += 1;
    } catch (err) {
      await releaseMailNotice(db, accountId, now, previous);
      if (err instanceof DomainError && err.code === 'wallet_unavailable') break;
      throw err;
    }
  }
  return { sent };
}

/** The wallet's background jobs, each run once a minute across every process on the database. */
export function startWalletJobs(deps: WalletDeps & { log: Log }): QueueWorker[] {
  const db: Db = deps.db;
  return [
    startRecurringJob({
      db,
      name: 'wallet-reconcile',
      intervalMs: 60_000,
      log: deps.log,
      run: () => reconcileInvoices(deps),
    }),
    startRecurringJob({
      db,
      name: 'wallet-mail-notices',
      intervalMs: 60_000,
      log: deps.log,
      run: () => sendMailNotices(deps),
    }),
  ];
}
