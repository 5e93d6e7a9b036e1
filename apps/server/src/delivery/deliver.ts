import fs from 'node:fs/promises';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../core/db/index.js';
import type { BlobStore, SpooledFile } from '../core/blobs/index.js';
import { emit, type EventBus } from '../core/events/index.js';
import { DomainError } from '../core/errors.js';
import {
  ingest,
  IngestFailed,
  parseMessage,
  messageBlobsFor,
  parseMessageFile,
  readHead,
  type Ingested,
  type IngestSource,
  type MessageBlobs,
  type MessageVerdict,
} from '../mailbox/index.js';
import { isEncryptedNotice } from '../encrypted/index.js';
import type { LocalRecipient } from '../addresses/index.js';
import {
  inboxOnly,
  claimFilterSend,
  FILTER_BODY_MAX_BYTES,
  planDelivery,
  type FilterMessage,
  recordFilterErrors,
  type DeliveryPlan,
  type OutgoingAction,
} from '../filters/index.js';
import { placeMessage, type Placement } from '../spam/index.js';
import { ingestMetrics } from './ingest-metrics.js';
import { storeInGroup } from './commit-group.js';

export interface IngestDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  log: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /**
   * Sends what an account's filter asked for (redirect, reject, vacation) through the outbox: deliverMessage returns
   * that mail, and its callers (the SMTP/LMTP server, the outbox) hand it over here (`sendOutgoing`). Sending sits
   * above delivery, so the process wires it in; without it those actions are recorded as errors and the message is
   * kept as the script's other actions say.
   */
  sendFilterActions?: SendFilterActions;
  /**
   * The deployment's secrets: the outbox opens own domains' DKIM keys with `dkimKeySecret` (without, only the
   * operator's key signs); redirects leave with SRS addresses keyed by `srsSecret`, and SMTP takes back the bounces
   * to them (without, a key made for this process alone: its addresses are not accepted by another process).
   */
  secrets?: { dkimKeySecret: string; srsSecret: string };
}

/** What a filter asked to send for one delivered message. */
export interface FilterActionsRequest {
  accountId: number;
  /** The RCPT TO of the account, and the envelope's MAIL FROM ("" for the null sender). */
  recipient: string;
  envelopeFrom: string;
  /** The message's raw bytes as received. */
  raw: Buffer;
  actions: OutgoingAction[];
  /** What is known of the message's authenticity and spamminess: a redirect reads it (filters' redirectRefusal). */
  verdict: MessageVerdict | undefined;
  /** The account's script judged the message spam (it filed it into Junk, or flagged it `$Junk`). */
  junkByScript: boolean;
}
export type SendFilterActions = (request: FilterActionsRequest) => Promise<void>;

/** Mail a filter asked to send for a delivered message, returned to the caller to send; then tell it how it went. */
export interface OutgoingMail {
  request: FilterActionsRequest;
  /** Sent: the filter's other errors are recorded. */
  sent(): Promise<void>;
  /** Not sent: recorded as the filter's error, and the message kept in the Inbox when the script kept no copy. */
  notSent(err: unknown): Promise<void>;
}

/** One outcome per recipient, in order, and what the filters ask to send (`sendOutgoing`). */
export interface Delivered {
  outcomes: DeliveryOutcome[];
  outgoing: OutgoingMail[];
}

/** The envelope of a received message: MAIL FROM, "" for the null sender <>. */
export interface ReceivedEnvelope {
  from: string;
  /** What the receiving path found out (SPF, DKIM, DMARC, ARC, a spam score); none for mail that never crossed SMTP. */
  verdict?: MessageVerdict;
}

/**
 * `quota`: the mailbox is full for now (4.2.2); `quota_permanent`: the message is bigger than the
 * whole mailbox (5.2.2); `temporary`: anything else went wrong and the sender should retry (4.3.0).
 */
export type DeliveryOutcome =
  { ok: true } | { ok: false; failure: 'quota' | 'quota_permanent' | 'temporary' };

/**
 * The same bytes for the same account within this window are the sender retrying a delivery
 * whose 250 it never saw (a crash between commit and reply, or a 4xx for another recipient of
 * a multi-recipient transaction): they are not stored twice.
 */
const RETRY_WINDOW_MS = 15 * 60_000;

/**
 * Stores one received message into the Inbox of every local recipient, durably (blobs fsynced,
 * rows committed) before it resolves, then publishes the events. The message is bytes in memory
 * (mail the service delivers itself) or a file spooled in the blob store's temporary area (SMTP,
 * LMTP): a file is parsed from disk with bounded memory and moved into the store, or removed
 * when it cannot be stored.
 * `together` (SMTP, one reply for all): every account in one transaction, all or nothing.
 * `each` (LMTP, a reply per recipient): each account on its own.
 * Returns one outcome per recipient, in order (several addresses of one account get one copy), and the mail the
 * recipients' filters ask to send, which the caller hands to sending (`sendOutgoing`): delivery sends nothing.
 * The copies are stored by mailbox's `ingest`, the one way mail comes in.
 */
export async function deliverMessage(
  deps: IngestDeps,
  raw: Buffer | SpooledFile,
  recipients: LocalRecipient[],
  mode: 'together' | 'each',
  envelope: ReceivedEnvelope = { from: '' },
): Promise<Delivered> {
  const spooled = Buffer.isBuffer(raw) ? undefined : raw;
  // A parse that fails (hostile mail, out of time) describes the message from its header; said in the log, as a
  // worker that could not start at all once made every message lose its attachment list unnoticed.
  const parseFailed = (err: unknown) =>
    deps.log.warn({ err }, 'the message could not be parsed; kept with its header');
  const parsed = spooled
    ? await parseMessageFile(spooled, parseFailed)
    : await parseMessage(raw as Buffer, parseFailed);

  // First address per account; accounts in id order so concurrent deliveries lock folders alike.
  const accounts = new Map<number, LocalRecipient>();
  for (const r of [...recipients].sort((a, b) => a.accountId - b.accountId)) {
    if (!accounts.has(r.accountId)) accounts.set(r.accountId, r);
  }
  // Each account's filter runs before anything is stored. The bytes are read once, when a script needs them: a small
  // message's from memory (the spool kept them), a larger one's from its spool file while it is there, else from the
  // store (reading a small message's blob back, a database row, cost a query and an inflate a message).
  // A larger spooled message is never read whole for its filters: they get its first 64 KiB (the header) and, only
  // when a body test runs, its first FILTER_BODY_MAX_BYTES — four 70 MB messages to members with filters at once
  // held each whole, several times over (issue 28). Only what a filter sends (a redirect) reads it all.
  let head: Promise<Buffer> | undefined;
  const readHeadOnce = (file: SpooledFile) =>
    (head ??= file.bytes ? Promise.resolve(file.bytes.subarray(0, 65_536)) : readHead(file.path, 65_536));
  let filterBody: Promise<Buffer> | undefined;
  const large = spooled && !spooled.bytes ? spooled : undefined;
  const filterMessage = large
    ? async (): Promise<FilterMessage> => ({
        size: large.size,
        head: await readHeadOnce(large),
        body: () => (filterBody ??= readHead(large.path, FILTER_BODY_MAX_BYTES)),
      })
    : undefined;
  let blobs: MessageBlobs | undefined;
  let rawBytes: Promise<Buffer> | undefined;
  const readRaw = () =>
    (rawBytes ??= spooled
      ? (spooled.bytes ? Promise.resolve(spooled.bytes) : fs.readFile(spooled.path)).catch((err: unknown) => {
          if (!blobs) throw err;
          return deps.blobs.get(blobs.raw.hash);
        })
      : Promise.resolve(raw as Buffer));
  const plans = new Map<number, DeliveryPlan>();
  const scored = envelope.verdict?.spam?.status === 'scored' ? envelope.verdict.spam : undefined;
  for (const r of accounts.values()) {
    const plan = await planDelivery(deps.db, r.accountId, filterMessage ?? readRaw, {
      from: envelope.from,
      to: r.address,
      ...(scored ? { spam: { score: scored.score, required: scored.required } } : {}),
    }).catch((err: unknown) => {
      deps.log.error({ err }, 'running a filter failed');
      return inboxOnly([{ filter: null, message: 'the filters could not run' }]);
    });
    if (plan) plans.set(r.accountId, plan);
  }

  // Where each account puts the message for what the checks found (its lists, DMARC quarantine, the spam score).
  const placements = new Map<number, Placement>();
  if (envelope.verdict) {
    const fromAddress = parsed.addresses.from?.[0]?.email ?? '';
    for (const r of accounts.values()) {
      const placement = await placeMessage(deps.db, r.accountId, envelope.verdict, fromAddress).catch(
        (err: unknown) => {
          deps.log.error({ err }, 'placing a checked message failed');
          return { verdict: envelope.verdict!, junk: false };
        },
      );
      if (placement) placements.set(r.accountId, placement);
    }
  }

  let encrypted: boolean;
  try {
    // The notice of a password-encrypted message: the reader shows the password prompt for it.
    encrypted = await isEncryptedNotice(deps.db, spooled ? await readHeadOnce(spooled) : (raw as Buffer));
    // Blobs first and outside any transaction: their fsyncs then do not hold row locks. A small one the store keeps
    // in the database is written by the statement storing the message instead (one commit); its spool file, never
    // fsynced, is then no longer wanted (the bytes are in memory).
    blobs = await messageBlobsFor(deps.blobs, raw);
    if (blobs.rawRow && spooled) await deps.blobs.discardSpooled(spooled);
  } catch (err) {
    deps.log.error({ err }, 'storing the message blobs failed');
    if (spooled) await deps.blobs.discardSpooled(spooled).catch(() => undefined);
    return { outcomes: recipients.map(() => ({ ok: false, failure: 'temporary' })), outgoing: [] };
  }
  const size = blobs.raw.size;

  const copiesOf = (accountId: number) => plans.get(accountId)?.copies ?? inboxOnly().copies;

  const outcomes = new Map<number, DeliveryOutcome>();
  const duplicates = new Set<number>();
  const outgoing: OutgoingMail[] = [];
  const groups = mode === 'together' ? [[...accounts.values()]] : [...accounts.values()].map((r) => [r]);
  const source = { parsed, blobs, encrypted };
  for (const group of groups) {
    let ingested: Ingested;
    try {
      // SMTP's accounts share a transaction (all or nothing); LMTP's each stand alone. Deliveries storing at the
      // same time share a commit (storeInGroup).
      const targets = group.map((r) => {
        const placement = placements.get(r.accountId);
        return {
          accountId: r.accountId,
          aliasId: r.aliasId,
          copies: copiesOf(r.accountId),
          ...(placement ? { verdict: placement.verdict } : {}),
          ...(placement?.junk ? { inbox: 'junk' as const } : {}),
        };
      });
      const skipIfStoredSince = new Date(Date.now() - RETRY_WINDOW_MS);
      ingested = await storeInGroup(deps.db, targets[0]!.accountId, (db) =>
        ingest(db, deps.blobs, source, targets, { skipIfStoredSince }),
      );
      for (const r of group) outcomes.set(r.accountId, { ok: true });
    } catch (err) {
      const failed =
        err instanceof IngestFailed ? group.find((r) => r.accountId === err.accountId) : undefined;
      const outcome = failureOf(err instanceof IngestFailed ? err.cause : err, size, failed ?? group.at(-1));
      if (outcome.failure === 'temporary') deps.log.error({ err }, 'storing a received message failed');
      for (const r of group) outcomes.set(r.accountId, outcome);
      continue;
    }
    for (const [accountId, events] of ingested.events) void emit(deps.db, deps, accountId, events);
    // Accounts that had this message already (a sender's retry): what their filter sends went out the first time.
    const retried = new Set(ingested.accounts.filter((a) => a.duplicate).map((a) => a.accountId));
    for (const accountId of retried) duplicates.add(accountId);
    for (const r of group) {
      if (retried.has(r.accountId)) continue;
      // No copy kept (discard), something to send: a retry of these bytes is known by the claim, not by a copy.
      const plan = plans.get(r.accountId);
      if (plan && !plan.copies.length && plan.outgoing.length) {
        const claimed = await claimFilterSend(
          deps.db,
          r.accountId,
          blobs.raw.hash,
          RETRY_WINDOW_MS / 1000,
        ).catch((err: unknown) => (deps.log.error({ err }, 'claiming what a filter sends failed'), true));
        if (!claimed) continue;
      }
      const mail = await afterStored(deps, r, plan, envelope, readRaw, source, placements.get(r.accountId));
      if (mail) outgoing.push(mail);
    }
  }
  for (const [accountId, outcome] of outcomes)
    ingestMetrics.recipient(
      outcome.ok ? (duplicates.has(accountId) ? 'duplicate' : 'stored') : outcome.failure,
    );
  return {
    outcomes: recipients.map((r) => outcomes.get(r.accountId) ?? { ok: false, failure: 'temporary' }),
    outgoing,
  };
}

/**
 * What a filter leaves to do once its message is stored: say the folder list changed, and what went wrong — now, or,
 * when it asked to send something, once the caller says how sending went (the mail to send is returned).
 */
async function afterStored(
  deps: IngestDeps,
  recipient: LocalRecipient,
  plan: DeliveryPlan | undefined,
  envelope: ReceivedEnvelope,
  readRaw: () => Promise<Buffer>,
  source: IngestSource,
  placement: Placement | undefined,
): Promise<OutgoingMail | undefined> {
  if (!plan) return undefined;
  const { accountId } = recipient;
  if (plan.foldersCreated) void emit(deps.db, deps, accountId, [{ event: 'updateMailboxList' }]);
  const record = (errors: DeliveryPlan['errors']) =>
    recordFilterErrors(deps.db, accountId, errors).catch((err: unknown) =>
      deps.log.error({ err }, 'recording a filter error failed'),
    );
  if (!plan.outgoing.length) {
    await record(plan.errors);
    return undefined;
  }
  const notSent = async (err: unknown) => {
    deps.log.info({ err }, 'what a filter sends was not sent');
    // The script kept no copy, counting on what it sends: mail is never lost because of a filter.
    if (!plan.copies.length)
      await ingest(
        deps.db,
        deps.blobs,
        source,
        [
          {
            accountId,
            aliasId: recipient.aliasId,
            copies: [{ folder: 'inbox' }],
            ...(placement ? { verdict: placement.verdict } : {}),
            ...(placement?.junk ? { inbox: 'junk' as const } : {}),
          },
        ],
        { enforceQuota: false },
      ).then(
        (kept) => {
          for (const [id, events] of kept.events) void emit(deps.db, deps, id, events);
        },
        (e: unknown) => deps.log.error({ err: e }, 'keeping a message in the Inbox failed'),
      );
    await record([...plan.errors, { filter: null, message: `not sent: ${(err as Error).message}` }]);
  };
  let raw: Buffer;
  try {
    raw = await readRaw();
  } catch (err) {
    await notSent(err);
    return undefined;
  }
  return {
    request: {
      accountId,
      recipient: recipient.address,
      envelopeFrom: envelope.from,
      raw,
      actions: plan.outgoing,
      verdict: placement?.verdict ?? envelope.verdict,
      junkByScript: plan.junk,
    },
    sent: () => record(plan.errors),
    notSent,
  };
}

/**
 * Hands what filters asked to send to `send` (sending's, wired by the process: sending sits above delivery), one
 * message after another, and tells each how it went. Without `send` nothing is sent and each is told so.
 */
export async function sendOutgoing(
  outgoing: OutgoingMail[],
  send: SendFilterActions | undefined,
): Promise<void> {
  for (const mail of outgoing) {
    try {
      if (!send) throw new Error('sending is not available here');
      await send(mail.request);
    } catch (err) {
      await mail.notSent(err);
      continue;
    }
    await mail.sent();
  }
}

function failureOf(
  err: unknown,
  size: number,
  recipient: LocalRecipient | undefined,
): Extract<DeliveryOutcome, { ok: false }> {
  if (err instanceof DomainError && err.code === 'quota_exceeded') {
    const permanent = recipient !== undefined && size > recipient.quotaLimitBytes;
    return { ok: false, failure: permanent ? 'quota_permanent' : 'quota' };
  }
  return { ok: false, failure: 'temporary' };
}

/** A spooled message that will not be stored, and what its parse spooled: gone. */
