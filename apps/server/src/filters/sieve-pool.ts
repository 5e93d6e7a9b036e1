import os from 'node:os';
import { tookTooLong, type CompileOptions, type SieveResult } from '@mailroom/sieve';
import { WorkerPool, WorkerTimeoutError, workerModule, type WorkerPoolOptions } from '../core/workers/index.js';

/**
 * Members' Sieve scripts run in a small pool of worker threads (core's `WorkerPool`), never on the server's event
 * loop: a script that spends its time (a costly `:regex` over a large body, say) holds one worker, not the SMTP
 * sessions, API calls and websockets of everyone else. Each run has SIEVE_TIME_LIMIT_MS: the interpreter stops
 * itself when it sees the clock pass it between steps, and a run still going a moment later (one long match) has its
 * worker terminated and replaced. Either way the run fails with "the filter took too long" and the message is kept.
 */
export interface SieveJob {
  /** The script's text (each worker keeps the scripts it compiled, by text). */
  source: string;
  compileOptions: CompileOptions;
  /** The message, in memory shared with the worker (copied once, not per attempt). */
  raw: Uint8Array;
  envelopeFrom: string;
  envelopeTo: string;
  /** The names of the account's folders; null when not read yet (a run that needs them answers "wantsMailboxes"). */
  mailboxes: string[] | null;
  /** Whether the body's MIME parts are decoded (body :content, :text); default true. */
  bodyParts?: boolean;
  /** The clock for currentdate, in ms since the epoch (now when absent). */
  now?: number;
  timeLimitMs: number;
}

export type SieveJobResult = { result: SieveResult } | { wantsMailboxes: true };

export interface SievePoolOptions extends WorkerPoolOptions {
  /** How long one run may take (SIEVE_TIME_LIMIT_MS). */
  timeLimitMs: number;
}

const defaults: SievePoolOptions = {
  size: Math.max(1, Math.min(2, os.availableParallelism())),
  timeLimitMs: 100,
  // The worker's own deadline is timeLimitMs; it is ended only if it cannot stop itself (one long step) this much
  // later: the message's decoding and the answer's way back are not the script's time.
  timeoutMs: 100,
  maxHeapMb: 256,
  idleMs: 30_000,
};

/** The margin the pool gives a run past its time limit before it terminates the worker (see above). */
const graceMs = (limit: number) => Math.max(50, Math.round(limit / 2));

const newPool = (options: SievePoolOptions) =>
  new WorkerPool<SieveJob, SieveJobResult>('sieve', workerModule(import.meta.url, 'sieve-worker'), {
    ...options,
    timeoutMs: options.timeLimitMs + graceMs(options.timeLimitMs),
  });

let pool: WorkerPool<SieveJob, SieveJobResult> | undefined;
let options = defaults;

/** Sets the pool's limits (SIEVE_TIME_LIMIT_MS at start-up; tests); running runs finish on the old pool. */
export function configureSievePool(changes: Partial<SievePoolOptions>): void {
  const next = { ...options, ...changes };
  if (Object.entries(next).every(([k, v]) => options[k as keyof SievePoolOptions] === v)) return;
  options = next;
  const old = pool;
  pool = undefined;
  void old?.close();
}

export const sieveTimeLimitMs = () => options.timeLimitMs;

/** The message's bytes in memory the workers share: one copy, whatever the number of attempts. */
export function sharedBytes(raw: Buffer): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(raw.length));
  shared.set(raw);
  return shared;
}

/**
 * Runs a script on a message in a worker. A run over its time is a failed run ("the filter took too long");
 * a worker that failed otherwise (its heap) rejects.
 */
export async function runInWorker(job: Omit<SieveJob, 'timeLimitMs'>): Promise<SieveJobResult> {
  pool ??= newPool(options);
  const timeLimitMs = options.timeLimitMs;
  try {
    return await pool.run({ ...job, timeLimitMs });
  } catch (err) {
    if (!(err instanceof WorkerTimeoutError)) throw err;
    return {
      result: {
        status: 'failed',
        actions: [],
        implicitKeep: { flags: [] },
        error: { message: tookTooLong(timeLimitMs), line: 0, column: 0 },
      },
    };
  }
}

/** How many Sieve workers are alive (starting, busy or waiting). */
export const sieveWorkers = () => pool?.size ?? 0;

export async function closeSievePool(): Promise<void> {
  await pool?.close();
  pool = undefined;
}
