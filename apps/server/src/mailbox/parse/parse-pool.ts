import os from 'node:os';
import { WorkerPool, workerModule, type WorkerPoolOptions } from '../../core/workers/index.js';
import type { ParsedMessage } from './message-text.js';

/**
 * A small pool of worker threads running mailparser (core's `WorkerPool`). Hostile mail can make a parser spin or
 * allocate without bound (deep nesting, a million parts, giant headers); in a worker the heap is capped and a stuck
 * parse is cut off by terminating the thread, so the server itself never stalls or runs out of memory.
 */
export type ParsePoolOptions = WorkerPoolOptions;

const defaults: ParsePoolOptions = {
  size: Math.max(1, Math.min(2, os.availableParallelism())),
  timeoutMs: 10_000,
  maxHeapMb: 192,
  // A parse leaves little alive: 8 MB of young generation instead of 32 costs no time (3,000 corpus messages parsed
  // in the pool: the same CPU within noise) and keeps ~25 MB less resident per worker while an import runs.
  maxYoungMb: 8,
  idleMs: 30_000,
};

/** What a worker parses: bytes, or a message file (read as a stream). */
export type ParseInput = { raw: Buffer } | { file: string; size: number };

/**
 * A file is read from disk and its attachments decoded (to count their size), which takes time with
 * its size: it gets the pool's time plus a second per 2 MB, so a 70 MB message is not cut off
 * on a busy disk while a hostile small one still is.
 */
const timeFor = (input: ParseInput, base: number) =>
  'file' in input ? base + Math.ceil(input.size / (2 * 1024 * 1024)) * 1000 : base;

const newPool = (options: ParsePoolOptions) =>
  new WorkerPool<ParseInput, ParsedMessage>('parse', workerModule(import.meta.url, 'parse-worker'), options, {
    timeFor,
  });

let pool: WorkerPool<ParseInput, ParsedMessage> | undefined;

/** Parses in the pool; rejects when the worker fails, runs out of heap or of time. */
export function parseInWorker(input: ParseInput): Promise<ParsedMessage> {
  pool ??= newPool(defaults);
  return pool.run(input);
}

/** Replaces the pool's limits (tests use a short timeout); running parses finish on the old pool. */
export function configureParsePool(options: Partial<ParsePoolOptions>): void {
  const old = pool;
  pool = newPool({ ...(old?.options ?? defaults), ...options });
  void old?.close();
}

/** How many parse workers are alive (busy or waiting for work). */
export function parseWorkers(): number {
  return pool?.size ?? 0;
}

export async function closeParsePool(): Promise<void> {
  await pool?.close();
  pool = undefined;
}
