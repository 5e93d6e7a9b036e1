import os from 'node:os';
import { tookTooLong, type CompileOptions, type SieveResult } from '@mailroom/sieve';
import {
  WorkerPool,
  WorkerTimeoutError,
  workerModule,
  type WorkerPoolOptions,
} from '../core/workers/index.js';

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
  /** The whole message's size when `raw` is only its first bytes (a large message's FilterMessage). */
  size?: number;
  /** `raw` is only the message's head: a run that reaches a body test answers "wantsBody". */
  headOnly?: boolean;
  envelopeFrom: string;
  envelopeTo: string;
  /** The names of the account's folders; null when not read yet (a run that needs them answers "wantsMailboxes"). */
  mailboxes: string[] | null;
  /** Whether the body's MIME parts are decoded (body :content, :text); default true. */
  bodyParts?: boolean;
  /** The clock for currentdate, in ms since the epoch (now when absent). */
  now?: number;
  /** The spam score for spamtest (absent: not tested). */
  spam?: { score: number; required: number };
  timeLimitMs: number;
}

/** A script to check (it is kept compiled by the worker, for the runs that follow). */
export interface SieveCompileJob {
  compile: true;
  source: string;
  compileOptions: CompileOptions;
}

/** Why a script does not compile: SieveSyntaxError's parts. */
export interface SieveCompileProblem {
  /** With the place ("line 3, column 5: …"). */
  message: string;
  reason: string;
  line: number;
  column: number;
  limit?: 'regex_too_long';
}

export type SieveJobResult =
  | { result: SieveResult }
  | { wantsMailboxes: true }
  /** A body test ran on a message given by its head alone (SieveJob.headOnly). */
  | { wantsBody: true }
  /** The script does not compile, or has no commands (a run: nothing was run). */
  | { compileError: SieveCompileProblem | null };

export interface SievePoolOptions extends WorkerPoolOptions {
  /** How long one run may take (SIEVE_TIME_LIMIT_MS). */
  timeLimitMs: number;
}

const defaults: SievePoolOptions = {
  size: Math.max(1, Math.min(2, os.availableParallelism())),
  timeLimitMs: 100,
  // The worker's own deadline is timeLimitMs; it is ended only if it cannot stop itself (one long step) this much
  // later: the message's decoding and the answer's way back are not the script's time.
  timeoutMs: 1100,
  maxHeapMb: 256,
  idleMs: 30_000,
};

/**
 * The margin the pool gives a run past its time limit before it terminates the worker (see above): the worker may
 * first have to compile the script (a worker that was replaced has lost the ones it kept).
 */
const graceMs = (limit: number) => Math.max(1000, limit);

/** Checking a script (its regexes compiled by RE2JS: ~100 ms for a pattern of 1024 characters) gets this long. */
const compileTimeMs = 10_000;

type Job = SieveJob | SieveCompileJob;

const newPool = (options: SievePoolOptions) =>
  new WorkerPool<Job, SieveJobResult>(
    'sieve',
    workerModule(import.meta.url, 'sieve-worker'),
    { ...options, timeoutMs: options.timeLimitMs + graceMs(options.timeLimitMs) },
    { timeFor: (job, timeoutMs) => ('compile' in job ? compileTimeMs : timeoutMs) },
  );

let pool: WorkerPool<Job, SieveJobResult> | undefined;
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

/**
 * Compiles a script in a worker (never on the event loop: RE2JS takes ~100 ms for a regex of 1024 characters),
 * which keeps it for the runs that follow: null when it compiles, else its problem. A check that takes longer than
 * 10 s is a problem too.
 */
export async function compileInWorker(
  source: string,
  compileOptions: CompileOptions,
): Promise<SieveCompileProblem | null> {
  pool ??= newPool(options);
  try {
    const answer = await pool.run({ compile: true, source, compileOptions });
    return 'compileError' in answer ? answer.compileError : null;
  } catch (err) {
    if (!(err instanceof WorkerTimeoutError)) throw err;
    const reason = 'the script takes too long to check';
    return { message: `line 1, column 1: ${reason}`, reason, line: 1, column: 1 };
  }
}

/** How many Sieve workers are alive (starting, busy or waiting). */
export const sieveWorkers = () => pool?.size ?? 0;

export async function closeSievePool(): Promise<void> {
  await pool?.close();
  pool = undefined;
}
