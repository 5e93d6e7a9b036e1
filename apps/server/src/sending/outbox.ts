import { createRequire } from 'node:module';
import type { DKIMSignResult } from 'mailauth';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { deliverMessage, sendOutgoing } from '../delivery/index.js';
import {
  dkimKeyFor,
  domainSigningKeys,
  resolveRecipient,
  type DomainSigningKey,
  type LocalRecipient,
} from '../addresses/index.js';
import { storeNotice } from '../mailbox/index.js';
import { emit } from '../core/events/index.js';
import type { Db, Trx } from '../core/db/index.js';
import {
  enqueueJobs,
  runJobsNow,
  wakeJobs,
  type Job,
  type JobContext,
  type JobOutcome,
} from '../core/jobs/index.js';
import { buildBounce, headerBlock, type DeliveryFailure } from './bounce.js';
import {
  enqueue,
  markBounced,
  markSent,
  recordAttemptError,
  startAttempts,
  uncountAttempts,
  type OutboxRow,
} from './sending.repository.js';
import { outboxMetrics } from './outbox-metrics.js';
import type { IngestDeps } from '../delivery/index.js';

/** What sending needs: the same parts as ingest (local recipients take the inbound path). */
export type SendingDeps = IngestDeps;

export type AttemptOutcome = 'sent' | 'retry' | 'bounced';

type Attempt = { ok: true } | { ok: false; permanent: boolean; failure: Omit<DeliveryFailure, 'recipient'> };

const MAX_BACKOFF_MS = 4 * 3600_000;

/** The job queue's kinds for outgoing mail, a job per outbox row (key: its id): to a local mailbox, or by the relay. */
export const OUTBOX_LOCAL = 'outbox-local';
export const OUTBOX_REMOTE = 'outbox-remote';

/** Asks the outbox workers of this process to look for due mail now rather than at the next poll. */
export function wakeOutbox(): void {
  wakeJobs(OUTBOX_LOCAL);
  wakeJobs(OUTBOX_REMOTE);
}

/** Queues outgoing mail: its outbox rows and their jobs, together (in the caller's transaction). */
export async function queueOutgoing(
  trx: Db | Trx,
  rows: Parameters<typeof enqueue>[1],
): Promise<OutboxRow[]> {
  const queued = await enqueue(trx, rows);
  await enqueueJobs(
    trx,
    queued.map((r) => ({ kind: r.local ? OUTBOX_LOCAL : OUTBOX_REMOTE, key: String(r.id) })),
  );
  return queued;
}

export function backoffMs(retryBaseMs: number, attempts: number): number {
  return Math.min(retryBaseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

/** nodemailer to SMTP_RELAY_URL, pooled; the envelope is always given explicitly. */
export function createRelay(url: string): Transporter {
  return nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 4,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 5 * 60_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Whose domain signs a message: its envelope sender's, or, for the null sender (bounces, a filter's auto-replies
 * and rejections), its From address's, so that those are signed too and align with From for DMARC.
 */
export function signingAddress(envelopeFrom: string, raw: Buffer): string {
  if (envelopeFrom) return envelopeFrom;
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
  const from = /^From:[ \t]*(.*(?:\r\n[ \t].*)*)/im.exec(head)?.[1]?.replace(/\r\n[ \t]/g, ' ');
  const [first] = from ? addressparser(from, { flatten: true }) : [];
  return first?.address ?? '';
}

// mailauth's main entry loads its BIMI module, whose undici needs Node 22; the DKIM signer alone runs on Node 20.
interface SignOptions {
  canonicalization: string;
  signatureData: { signingDomain: string; selector: string; privateKey: string; algorithm: string }[];
}
// Loaded with the first message signed, not at start (an idle server's heap; issue 32).
let signer: ((raw: Buffer, options: SignOptions) => Promise<DKIMSignResult>) | undefined;
const dkimSign = (raw: Buffer, options: SignOptions) =>
  (signer ??= (
    createRequire(import.meta.url)('mailauth/lib/dkim/sign.js') as {
      dkimSign: (raw: Buffer, options: SignOptions) => Promise<DKIMSignResult>;
    }
  ).dkimSign)(raw, options);

/**
 * A message From a verified own domain signed with both of the domain's active keys, RSA and Ed25519 (some receivers
 * verify only RSA), by mailauth: the DKIM-Signature fields put before the message.
 */
export async function signWithDomainKeys(raw: Buffer, keys: DomainSigningKey[]): Promise<Buffer> {
  const result = await dkimSign(raw, {
    canonicalization: 'relaxed/relaxed',
    signatureData: keys.map((key) => ({
      signingDomain: key.domain,
      selector: key.selector,
      privateKey: key.privateKey,
      algorithm: key.algorithm === 'rsa' ? 'rsa-sha256' : 'ed25519-sha256',
    })),
  });
  if (!result.signatures || result.errors.length > 0)
    throw new Error(`DKIM signing failed: ${result.errors.map((e) => String(e.err ?? e)).join('; ')}`);
  return Buffer.concat([Buffer.from(result.signatures), raw]);
}

/** How a domain's mail is signed: a verified own domain with its own keys, the main domain by `dkim set`'s key. */
type Signing = { ownKeys: DomainSigningKey[]; key: Awaited<ReturnType<typeof dkimKeyFor>> };

/**
 * The signing of each domain, looked up once for a batch of attempts (most of a batch comes from a few domains):
 * two queries a domain rather than two a message.
 */
function signingLookup(deps: SendingDeps): (domain: string) => Promise<Signing> {
  const known = new Map<string, Promise<Signing>>();
  return (domain) => {
    let found = known.get(domain);
    if (!found) {
      found = (async () => {
        const ownKeys = deps.secrets
          ? await domainSigningKeys(deps.db, deps.secrets.dkimKeySecret, domain)
          : [];
        return { ownKeys, key: ownKeys.length > 0 ? undefined : await dkimKeyFor(deps.db, domain) };
      })();
      // A failed look-up is not kept: the next row asks again.
      found.catch(() => known.delete(domain));
      known.set(domain, found);
    }
    return found;
  };
}

/** A row made ready for the relay: its bytes (signed with its domain's own keys) and the `dkim set` key to sign with. */
type Ready = { raw: Buffer; key: Signing['key'] };

async function prepareRelay(
  deps: SendingDeps,
  row: OutboxRow,
  signingOf: (domain: string) => Promise<Signing>,
): Promise<Ready> {
  const raw = await deps.blobs.get(row.blob_hash);
  const domain = domainOf(signingAddress(row.envelope_from, raw));
  const { ownKeys, key } = await signingOf(domain);
  return { raw: ownKeys.length > 0 ? await signWithDomainKeys(raw, ownKeys) : raw, key };
}

/** One relay attempt; a 5xx reply is permanent, anything else (4xx, no connection) is retried. */
async function relayOne(relay: Transporter, row: OutboxRow, { raw, key }: Ready): Promise<Attempt> {
  try {
    await relay.sendMail({
      envelope: { from: row.envelope_from, to: [row.recipient] },
      raw,
      ...(key
        ? { dkim: { domainName: key.domain, keySelector: key.selector, privateKey: key.private_key } }
        : {}),
    });
    return { ok: true };
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message?: string };
    const code = e.responseCode ?? 0;
    const permanent = code >= 500 && code < 600;
    const enhanced = /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(e.response ?? '')?.[1];
    return {
      ok: false,
      permanent,
      failure: {
        status:
          enhanced && enhanced[0] === (permanent ? '5' : '4') ? enhanced : permanent ? '5.0.0' : '4.4.1',
        diagnostic: e.response ?? e.message ?? 'delivery failed',
        diagnosticType: e.response ? 'smtp' : 'x-local',
      },
    };
  }
}

/** Local rows of one message: the inbound delivery path (quota, and filters when they come). */
async function deliverLocal(deps: SendingDeps, rows: OutboxRow[]): Promise<Attempt[]> {
  const raw = await deps.blobs.get(rows[0]!.blob_hash);
  const attempts = new Map<OutboxRow, Attempt>();
  const found: { row: OutboxRow; recipient: LocalRecipient }[] = [];
  for (const row of rows) {
    const resolved = await resolveRecipient(deps.db, deps.config, row.recipient);
    if (resolved.kind === 'local') found.push({ row, recipient: resolved.recipient });
    else {
      attempts.set(row, {
        ok: false,
        permanent: true,
        failure: {
          status: '5.1.1',
          diagnostic: `${row.recipient}: no such mailbox here`,
          diagnosticType: 'x-local',
        },
      });
    }
  }
  if (found.length) {
    const { outcomes, outgoing } = await deliverMessage(
      deps,
      raw,
      found.map((f) => f.recipient),
      'each',
      { from: rows[0]!.envelope_from },
    );
    await sendOutgoing(outgoing, deps.sendFilterActions);
    found.forEach(({ row }, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) attempts.set(row, { ok: true });
      else {
        const permanent = outcome.failure === 'quota_permanent';
        attempts.set(row, {
          ok: false,
          permanent,
          failure: {
            status: permanent ? '5.2.2' : outcome.failure === 'quota' ? '4.2.2' : '4.3.0',
            diagnostic:
              outcome.failure === 'temporary'
                ? 'temporary local delivery failure'
                : `${row.recipient}: mailbox full`,
            diagnosticType: 'x-local',
          },
        });
      }
    });
  }
  return rows.map((r) => attempts.get(r)!);
}

/**
 * Something of ours failed (a blob unreadable, the database away): a temporary failure, so the
 * row is retried with backoff and, should it never work, bounced once the attempts are used up.
 */
function failedAttempt(deps: SendingDeps, err: unknown): Attempt {
  deps.log.error({ err }, 'an outbox delivery attempt failed');
  return {
    ok: false,
    permanent: false,
    failure: {
      status: '4.3.0',
      diagnostic: 'temporary failure of the mail system',
      diagnosticType: 'x-local',
    },
  };
}

/** Stores the DSN in the sender's Inbox (never refused for quota) and closes the row, together. */
async function bounce(deps: SendingDeps, row: OutboxRow, failure: DeliveryFailure): Promise<void> {
  const original = await deps.blobs.get(row.blob_hash).catch(() => Buffer.alloc(0));
  const raw = await buildBounce({
    mailDomain: deps.config.mailDomain,
    sender: row.envelope_from,
    failure,
    originalHeaders: headerBlock(original),
    originalMessageId: row.message_id,
    arrivalDate: row.created_at,
  });
  const { events } = await storeNotice(deps.db, deps.blobs, row.account_id, raw, (trx) =>
    markBounced(trx, row.id, `${failure.status} ${failure.diagnostic}`),
  );
  await emit(deps.db, deps, row.account_id, events);
}

async function settle(
  deps: SendingDeps,
  row: OutboxRow,
  attempt: Attempt,
): Promise<{ outcome: AttemptOutcome; job: JobOutcome }> {
  if (attempt.ok) {
    await markSent(deps.db, row.id);
    return { outcome: 'sent', job: undefined };
  }
  const exhausted = row.attempts >= deps.config.outbox.maxAttempts;
  if (attempt.permanent || exhausted) {
    const failure = { recipient: row.recipient, ...attempt.failure };
    if (!attempt.permanent) failure.status = failure.status.replace(/^4/, '5');
    deps.log.info({ outbox: row.id, status: failure.status }, 'outgoing mail bounced');
    await bounce(deps, row, failure);
    return { outcome: 'bounced', job: undefined };
  }
  const delay = backoffMs(deps.config.outbox.retryBaseMs, row.attempts);
  const error = `${attempt.failure.status} ${attempt.failure.diagnostic}`;
  await recordAttemptError(deps.db, row.id, error);
  return { outcome: 'retry', job: { retry: error, delayMs: delay } };
}

/**
 * One attempt for each claimed row: local rows through the inbound path (grouped by message),
 * remote ones through the relay (when there is one; without, they stay queued). Returns the
 * outcome per row, in order (undefined for a row not attempted). Once `signal` aborts (the process is stopping) no
 * new attempt starts: the attempts under way end, and the rows not yet attempted are left untried (their jobs are
 * given back at once rather than left leased until OUTBOX_LEASE_MS runs out).
 */
async function deliverClaimed(
  deps: SendingDeps,
  rows: OutboxRow[],
  relay?: Transporter,
  signal?: AbortSignal,
): Promise<Map<OutboxRow, { outcome: AttemptOutcome; job: JobOutcome }>> {
  const outcomes = new Map<OutboxRow, { outcome: AttemptOutcome; job: JobOutcome }>();
  const settled = async (target: 'local' | 'relay', row: OutboxRow, attempt: Attempt) => {
    const done = await settle(deps, row, attempt);
    outboxMetrics.settled(target, done.outcome);
    outcomes.set(row, done);
  };
  const byMessage = new Map<string, OutboxRow[]>();
  for (const row of rows.filter((r) => r.local)) {
    byMessage.set(row.blob_hash, [...(byMessage.get(row.blob_hash) ?? []), row]);
  }
  for (const group of byMessage.values()) {
    if (signal?.aborted) break;
    const done = outboxMetrics.attempt('local');
    const attempts = await deliverLocal(deps, group).catch((err: unknown) =>
      group.map(() => failedAttempt(deps, err)),
    );
    done();
    for (const [i, row] of group.entries()) await settled('local', row, attempts[i]!);
  }
  const remote = rows.filter((r) => !r.local);
  if (relay) {
    // As many at once as the relay pool has connections.
    const queue = [...remote];
    const signingOf = signingLookup(deps);
    const prepare = (row: OutboxRow) =>
      prepareRelay(deps, row, signingOf).then(
        (ready) => ({ ready }),
        (err: unknown) => ({ err }),
      );
    // Each lane fetches its next row's bytes while the relay takes the current one (the blob store is a round trip
    // of its own); a row is still marked before the lane's next attempt, so a killed process relays again at most
    // the row each lane had under way.
    const worker = async () => {
      let row = queue.shift();
      let next = row ? prepare(row) : undefined;
      while (row && next && !signal?.aborted) {
        const done = outboxMetrics.attempt('relay');
        const prepared = await next;
        const following = queue.shift();
        next = following ? prepare(following) : undefined;
        const attempt =
          'err' in prepared
            ? failedAttempt(deps, prepared.err)
            : await relayOne(relay, row, prepared.ready).catch((err: unknown) => failedAttempt(deps, err));
        done();
        await settled('relay', row, attempt);
        row = following;
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  }
  return outcomes;
}

/**
 * The outbox's batch of claimed jobs: their rows' attempts, an outcome for each job. A row not attempted (stopping,
 * or remote mail where there is no relay) is given back; a job whose row was already settled is done.
 */
export function outboxBatch(
  deps: SendingDeps,
  relay: Transporter | undefined,
  seen?: (outcomes: AttemptOutcome[]) => void,
): (jobs: Job[], ctx: JobContext) => Promise<JobOutcome[]> {
  return async (jobs, ctx) => {
    const rows = await startAttempts(
      deps.db,
      jobs.map((j) => ({ id: Number(j.key), attempts: j.attempts })),
    );
    const outcomes = await deliverClaimed(deps, rows, relay, ctx.signal);
    const untried = rows.filter((r) => !outcomes.has(r));
    if (untried.length) {
      await uncountAttempts(deps.db, untried).catch((err: unknown) =>
        deps.log.warn(
          { err },
          'giving back claimed outbox rows failed; they come back when their lease ends',
        ),
      );
      if (ctx.signal.aborted)
        deps.log.info({ released: untried.length }, 'stopping: claimed outbox rows given back');
    }
    seen?.(rows.map((r) => outcomes.get(r)?.outcome ?? 'retry'));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return jobs.map((j) => {
      const row = byId.get(Number(j.key));
      if (!row) return undefined;
      const done = outcomes.get(row);
      return done ? done.job : 'release';
    });
  };
}

/**
 * Delivers just-sent local rows now (the sender learns how many got it), through their jobs: claimed as the outbox
 * worker would, so a row is never attempted twice at once. Answers the outcome per attempted row.
 */
export async function deliverNow(deps: SendingDeps, ids: number[]): Promise<AttemptOutcome[]> {
  let outcomes: AttemptOutcome[] = [];
  await runJobsNow({
    db: deps.db,
    kinds: [OUTBOX_LOCAL],
    keys: ids.map(String),
    log: deps.log,
    run: outboxBatch(deps, undefined, (seen) => (outcomes = seen)),
  });
  return outcomes;
}
