import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ParsedMessage } from './parse-message.js';

/**
 * A small pool of worker threads running mailparser. Hostile mail can make a parser spin or
 * allocate without bound (deep nesting, a million parts, giant headers); in a worker the heap
 * is capped by `resourceLimits` and a stuck parse is cut off by terminating the thread, so the
 * server itself never stalls or runs out of memory. Hand-written (≈100 lines) rather than a
 * pool library: the one feature we need beyond a queue is terminate-on-timeout.
 */
export interface ParsePoolOptions {
  size: number;
  timeoutMs: number;
  /** Old-generation heap per worker; Buffers (attachment bytes) are outside it. */
  maxHeapMb: number;
  /**
   * A worker with nothing to do for this long is ended: a thread keeps its heap (tens of MB after
   * a burst of mail, up to maxHeapMb) for as long as it lives, and a new one starts in ~30 ms.
   */
  idleMs: number;
}

const defaults: ParsePoolOptions = {
  size: Math.max(1, Math.min(2, os.availableParallelism())),
  timeoutMs: 10_000,
  maxHeapMb: 192,
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

interface Job {
  input: ParseInput;
  resolve: (parsed: ParsedMessage) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
  /** Set while the worker waits for work: it ends the worker when it fires. */
  idle: NodeJS.Timeout | undefined;
}

// Under tsx (development, tests) the worker is TypeScript and needs the same loader.
const isSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(isSource ? './parse-worker.ts' : './parse-worker.js', import.meta.url);

class ParsePool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(readonly options: ParsePoolOptions) {}

  parse(input: ParseInput): Promise<ParsedMessage> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.pump();
    });
  }

  private spawn(): Slot {
    const options = {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    };
    // A worker does not inherit the parent's loader hooks: under tsx it registers tsx itself.
    const worker = isSource
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}); })`,
          { ...options, eval: true },
        )
      : new Worker(workerUrl, options);
    worker.unref();
    const slot: Slot = { worker, job: undefined, idle: undefined };
    const fail = (err: Error) => {
      clearTimeout(slot.idle);
      this.slots.delete(slot);
      const job = slot.job;
      slot.job = undefined;
      if (job) {
        clearTimeout(job.timer);
        job.reject(err);
      }
      void worker.terminate();
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`parse worker exited with ${code}`)));
    worker.on('message', (msg: { id: number; parsed?: ParsedMessage; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      clearTimeout(job.timer);
      slot.job = undefined;
      if (msg.parsed) job.resolve(msg.parsed);
      else job.reject(new Error(msg.error ?? 'parse failed'));
      this.pump();
      if (!slot.job) this.retireWhenIdle(slot);
    });
    this.slots.add(slot);
    return slot;
  }

  private retireWhenIdle(slot: Slot): void {
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (slot.job) return;
      this.slots.delete(slot);
      void slot.worker.terminate();
    }, this.options.idleMs);
    slot.idle.unref();
  }

  /** Workers alive now (busy or waiting). */
  get size(): number {
    return this.slots.size;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => !s.job);
      if (!slot && this.slots.size < this.options.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      clearTimeout(slot.idle);
      const id = this.nextId++;
      const timeoutMs = timeFor(job.input, this.options.timeoutMs);
      const timer = setTimeout(() => {
        slot.worker.emit('error', new Error(`parse timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      slot.job = { ...job, id, timer };
      slot.worker.postMessage({ id, ...job.input });
    }
  }

  async close(): Promise<void> {
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

let pool: ParsePool | undefined;

/** Parses in the pool; rejects when the worker fails, runs out of heap or of time. */
export function parseInWorker(input: ParseInput): Promise<ParsedMessage> {
  pool ??= new ParsePool(defaults);
  return pool.parse(input);
}

/** Replaces the pool's limits (tests use a short timeout); running parses finish on the old pool. */
export function configureParsePool(options: Partial<ParsePoolOptions>): void {
  const old = pool;
  pool = new ParsePool({ ...(old?.options ?? defaults), ...options });
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
