import type { MailEvent } from '@mailroom/protocol';
import type { BlobStore } from '../core/blobs/index.js';
import { transact, type Db, type Trx } from '../core/db/index.js';
import type { ParsedMessage } from './parse/index.js';
import {
  storeMessage,
  storeMessages,
  StoreRefused,
  type MessageBlobs,
  type StoredMessage,
  type StoreMessageInput,
  type StoreMessageResult,
} from './store-message.js';
import type { MessageVerdict } from './verdict.js';
import { afterArrival } from './returns.js';

/**
 * The one way a message from outside comes into mailboxes (issue 29): SMTP and LMTP, local delivery of sent mail,
 * collectors — and what comes next (an mbox import, IMAP APPEND, snoozed mail coming back). The caller parses the
 * message and stores its blobs first (outside any transaction: their fsyncs then hold no row lock), then says what
 * each account keeps of it: its plan, the copies a filter asked for (none: discarded).
 */
export interface IngestSource {
  parsed: ParsedMessage;
  blobs: MessageBlobs;
  /** The notice of a password-encrypted message (the reader asks for the password). */
  encrypted?: boolean;
  /** When it arrived, if not now (a collector keeps the sender's date). */
  receivedAt?: Date;
  /** Flags the message comes with (a collector's remote \Seen, \Flagged, \Answered), merged into every copy's. */
  flags?: { seen: boolean; flagged: boolean; answered: boolean };
}

/** One copy to keep: into the Inbox (or what `inbox` names) or a folder by id, with flags and labels. */
export interface IngestCopy {
  folder: number | 'inbox';
  flags?: { seen?: boolean; flagged?: boolean; answered?: boolean; draft?: boolean } | undefined;
  labels?: number[] | undefined;
}

/** An account and its plan for the message. */
export interface IngestTarget {
  accountId: number;
  /** The alias the message came to (null: the primary address); a session held to one address sees its mail. */
  aliasId?: number | null;
  copies: IngestCopy[];
  /** The folder the plan's `inbox` means when not the Inbox (a collector's folder for its remote one), or Junk. */
  inbox?: number | 'junk';
  /** What the receiving path found out about the message for this account (kept with every copy). */
  verdict?: MessageVerdict;
}

export interface IngestOptions {
  /** A message whose bytes an account already received after this time is a sender's retry: none of it is kept. */
  skipIfStoredSince?: Date;
  /** False for a copy that must not be refused for space (a message kept because what its filter sent failed). */
  enforceQuota?: boolean;
}

export interface Ingested {
  /** Per target, in order: the copies stored, or `duplicate` (a sender's retry, nothing stored). */
  accounts: { accountId: number; stored: StoredMessage[]; duplicate: boolean }[];
  /** What to publish once committed, by account. */
  events: [accountId: number, events: MailEvent[]][];
}

/** The account whose copy could not be stored (quota, a folder gone), and why: `cause`. */
export class IngestFailed extends Error {
  constructor(
    readonly accountId: number,
    override readonly cause: unknown,
  ) {
    super(`storing a message for account ${accountId} failed`, { cause });
  }
}

/**
 * Stores the copies every target's plan asks for, all or nothing: in the caller's transaction when `db` is one, else
 * in one of its own — unless it is one copy for one account, which is one statement, atomic by itself. Throws
 * IngestFailed naming the account that failed. Nothing is published here: the caller publishes `events` after
 * its commit.
 */
export async function ingest(
  db: Db,
  blobs: BlobStore,
  source: IngestSource,
  targets: IngestTarget[],
  options: IngestOptions = {},
): Promise<Ingested> {
  const answers = answersOf(source);
  const woken = new Map<number, Set<number>>();
  const run = async (trx: Db): Promise<Ingested> => {
    const result: Ingested = { accounts: [], events: [] };
    // A blob not written yet (messageBlobsFor) is written by the first copy stored; in a transaction the others
    // then need not write it again.
    let blobs_ = source.blobs;
    woken.clear();
    for (const target of targets) {
      const done = { accountId: target.accountId, stored: [] as StoredMessage[], duplicate: false };
      result.accounts.push(done);
      try {
        for (const [i, copy] of target.copies.entries()) {
          const input = copyInput(source, blobs_, answers, target, copy, options);
          // The first copy tells a sender's retry (stored before) from a new message; the others follow it.
          const stored =
            i === 0 && options.skipIfStoredSince
              ? await storeMessage(trx, blobs, { ...input, skipIfStoredSince: options.skipIfStoredSince })
              : await storeMessage(trx, blobs, input);
          if (!stored) {
            done.duplicate = true;
            break;
          }
          keep(result, done, woken, stored);
          if (blobs_.rawRow && trx.isTransaction) blobs_ = { raw: blobs_.raw };
        }
      } catch (err) {
        throw new IngestFailed(target.accountId, err);
      }
    }
    return result;
  };
  const single = targets.length === 1 && targets[0]!.copies.length <= 1;
  const result = await (db.isTransaction || single ? run(db) : transact(db, run));
  result.events.push(...(await afterArrival(db, arrivedOf(woken), [])));
  return result;
}

/** New mail ends the follow-ups it answers (in the statement storing it) and wakes a snoozed conversation it joins. */
function answersOf({ parsed }: IngestSource): string[] {
  return [...(parsed.inReplyTo ? [parsed.inReplyTo] : []), ...parsed.references.slice(-20)];
}

/** What one copy of a target's plan stores (storeMessage's input). */
function copyInput(
  source: IngestSource,
  blobs: MessageBlobs,
  answers: string[],
  target: IngestTarget,
  copy: IngestCopy,
  options: IngestOptions,
): StoreMessageInput {
  return {
    accountId: target.accountId,
    ...(copy.folder !== 'inbox'
      ? { folderId: copy.folder }
      : target.inbox === 'junk'
        ? { systemFolder: 'junk' as const }
        : target.inbox !== undefined
          ? { folderId: target.inbox }
          : { systemFolder: 'inbox' as const }),
    ...(target.verdict ? { verdict: target.verdict } : {}),
    parsed: source.parsed,
    blobs,
    arrival: { answers },
    ...(target.aliasId !== undefined ? { aliasId: target.aliasId } : {}),
    ...(source.encrypted !== undefined ? { encrypted: source.encrypted } : {}),
    ...(source.receivedAt ? { receivedAt: source.receivedAt } : {}),
    flags: mergedFlags(source.flags, copy.flags),
    labels: copy.labels,
    ...(options.enforceQuota === false ? { enforceQuota: false } : {}),
  };
}

/** A stored copy into the result, and its conversation among those to wake when it has snoozed messages. */
function keep(
  result: Ingested,
  account: Ingested['accounts'][number],
  woken: Map<number, Set<number>>,
  stored: StoreMessageResult,
) {
  const { accountId } = account;
  account.stored.push(stored.message);
  result.events.push([accountId, stored.events]);
  if (stored.snoozed) woken.set(accountId, (woken.get(accountId) ?? new Set()).add(stored.message.threadId));
}

const arrivedOf = (woken: Map<number, Set<number>>) =>
  [...woken].map(([accountId, threads]) => ({ accountId, threadIds: [...threads] }));

function mergedFlags(remote: IngestSource['flags'], copy: IngestCopy['flags']): IngestCopy['flags'] {
  if (!remote) return copy;
  return {
    seen: remote.seen || !!copy?.seen,
    flagged: remote.flagged || !!copy?.flagged,
    answered: remote.answered || !!copy?.answered,
    draft: !!copy?.draft,
  };
}

/**
 * Many messages in the caller's transaction (an import's batch), each stored as `ingest` stores it, in order and with
 * the same results, but set-based: every copy of every message goes to storeMessages at once (a statement for many
 * rows), the snoozed conversations they join are woken once for the batch. Throws IngestFailed as ingest does.
 */
export async function ingestMany(
  trx: Trx,
  blobs: BlobStore,
  messages: { source: IngestSource; targets: IngestTarget[] }[],
  options: Omit<IngestOptions, 'skipIfStoredSince'> = {},
): Promise<Ingested[]> {
  const inputs: StoreMessageInput[] = [];
  const owners: { result: Ingested; account: Ingested['accounts'][number] }[] = [];
  const results: Ingested[] = [];
  for (const { source, targets } of messages) {
    const result: Ingested = { accounts: [], events: [] };
    results.push(result);
    const answers = answersOf(source);
    // As in ingest: a blob not written yet is written by the first copy.
    let blobs_ = source.blobs;
    for (const target of targets) {
      const account = { accountId: target.accountId, stored: [] as StoredMessage[], duplicate: false };
      result.accounts.push(account);
      for (const copy of target.copies) {
        inputs.push(copyInput(source, blobs_, answers, target, copy, options));
        owners.push({ result, account });
        if (blobs_.rawRow) blobs_ = { raw: blobs_.raw };
      }
    }
  }
  let stored: StoreMessageResult[];
  try {
    stored = (await storeMessages(trx, blobs, inputs))!;
  } catch (err) {
    throw new IngestFailed(err instanceof StoreRefused ? err.accountId : (inputs[0]?.accountId ?? 0), err);
  }
  const woken = new Map<number, Set<number>>();
  for (const [i, { result, account }] of owners.entries()) keep(result, account, woken, stored[i]!);
  const last = results[results.length - 1];
  if (last) last.events.push(...(await afterArrival(trx, arrivedOf(woken), [])));
  return results;
}
