import { Worker, type Transferable } from 'node:worker_threads';

/**
 * A small pool of worker threads with a deadline per job: work that may spin or allocate without bound on hostile
 * input (mailparser on a crafted message, a member's Sieve script) runs in a thread whose heap is capped by
 * `resourceLimits` and which is terminated — and replaced on demand — when a job overruns, so the server's own
 * event loop never stalls. Hand-written (≈150 lines) rather than a pool library: the one feature needed beyond a
 * queue is terminate-on-timeout. A worker module answers through `serveJobs` (worker-serve.ts).
 */
export interface WorkerPoolOptions {
  size: number;
  /** How long one job may take once a worker has it (not counting the wait in the queue, or a worker's start). */
  timeoutMs: number;
  /** Old-generation heap per worker; Buffers are outside it. */
  maxHeapMb: number;
  /**
   * Young generation per worker (default 32): its semi-spaces stay resident once used, so a pool's RSS grows by
   * about this much per worker under load; a worker whose jobs leave little alive (a parse) can take less.
   */
  maxYoungMb?: number;
  /**
   * A worker with nothing to do for this long is ended: a thread keeps its heap (tens of MB after a burst of work,
   * up to maxHeapMb) for as long as it lives, and a new one starts in ~30 ms (built code; longer under tsx).
   */
  idleMs: number;
}

/** A job that overran its time: its worker was terminated. */
export class WorkerTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the worker took more than ${timeoutMs} ms`);
  }
}

export interface WorkerPoolHooks<I> {
  /** The time a job gets (default: the pool's timeoutMs). */
  timeFor?: (input: I, timeoutMs: number) => number;
  /** Buffers to move to the worker rather than copy (the caller must not use them after). */
  transfer?: (input: I) => Transferable[];
}

interface Job<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (err: Error) => void;
}

interface Slot<I, O> {
  worker: Worker;
  /** The worker has loaded its module (it says so first); only then is it given jobs, so a job's time is its own. */
  ready: boolean;
  job: (Job<I, O> & { id: number; timer: NodeJS.Timeout }) | undefined;
  /** Set while the worker waits for work: it ends the worker when it fires. */
  idle: NodeJS.Timeout | undefined;
}

/**
 * The worker module next to `from` (an `import.meta.url`): `name.ts` when the caller runs from source under tsx
 * (development, tests), `name.js` when built.
 */
export function workerModule(from: string, name: string): URL {
  return new URL(from.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, from);
}

export class WorkerPool<I extends object, O> {
  private readonly slots = new Set<Slot<I, O>>();
  private readonly queue: Job<I, O>[] = [];
  private nextId = 1;

  constructor(
    readonly name: string,
    private readonly module: URL,
    readonly options: WorkerPoolOptions,
    private readonly hooks: WorkerPoolHooks<I> = {},
  ) {}

  run(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.pump();
    });
  }

  private spawn(): Slot<I, O> {
    const options = {
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.maxHeapMb,
        maxYoungGenerationSizeMb: this.options.maxYoungMb ?? 32,
      },
    };
    // A worker does not inherit the parent's loader hooks: under tsx it registers tsx itself, and reads the
    // workspace packages from their sources (the "@mailroom/source" condition) as the parent does.
    const worker = this.module.pathname.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(this.module.href)}); })`,
          {
            ...options,
            eval: true,
            // Only the export conditions: a worker refuses the process-wide V8 flags the serve script gives the
            // server (--max-semi-space-size, --expose-gc: ERR_WORKER_INVALID_EXEC_ARGV), and tsx it registers itself.
            execArgv: [
              ...new Set([
                ...process.execArgv.filter((arg) => arg.startsWith('--conditions=')),
                '--conditions=@mailroom/source',
              ]),
            ],
          },
        )
      : new Worker(this.module, options);
    worker.unref();
    const slot: Slot<I, O> = { worker, ready: false, job: undefined, idle: undefined };
    const fail = (err: Error) => {
      clearTimeout(slot.idle);
      if (!this.slots.delete(slot)) return;
      const job = slot.job;
      slot.job = undefined;
      if (job) {
        clearTimeout(job.timer);
        job.reject(err);
      } else if (!slot.ready) {
        // A worker that died while starting (its heap too small for its own modules, say) fails the job it was
        // started for, rather than being started again for ever.
        this.queue.shift()?.reject(err);
      }
      void worker.terminate();
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`${this.name} worker exited with ${code}`)));
    worker.on('message', (msg: { ready?: true; id?: number; result?: O; error?: string }) => {
      if (msg.ready) {
        slot.ready = true;
        this.pump();
        if (!slot.job) this.retireWhenIdle(slot);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      clearTimeout(job.timer);
      slot.job = undefined;
      if (msg.error === undefined) job.resolve(msg.result as O);
      else job.reject(new Error(msg.error));
      this.pump();
      if (!slot.job) this.retireWhenIdle(slot);
    });
    this.slots.add(slot);
    return slot;
  }

  private retireWhenIdle(slot: Slot<I, O>): void {
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (slot.job) return;
      this.slots.delete(slot);
      void slot.worker.terminate();
    }, this.options.idleMs);
    slot.idle.unref();
  }

  /** Workers alive now (starting, busy or waiting). */
  get size(): number {
    return this.slots.size;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const free = [...this.slots].find((s) => s.ready && !s.job);
      if (!free) {
        // One more worker while there is room, and none is already starting for the queue.
        const starting = [...this.slots].filter((s) => !s.ready).length;
        if (this.slots.size < this.options.size && starting < this.queue.length) {
          this.spawn();
          continue;
        }
        return;
      }
      const job = this.queue.shift()!;
      clearTimeout(free.idle);
      const id = this.nextId++;
      const timeoutMs = this.hooks.timeFor?.(job.input, this.options.timeoutMs) ?? this.options.timeoutMs;
      const timer = setTimeout(() => {
        free.worker.emit('error', new WorkerTimeoutError(timeoutMs));
      }, timeoutMs);
      free.job = { ...job, id, timer };
      free.worker.postMessage({ id, ...job.input }, this.hooks.transfer?.(job.input) ?? []);
    }
  }

  async close(): Promise<void> {
    const slots = [...this.slots];
    this.slots.clear();
    for (const s of slots) {
      clearTimeout(s.idle);
      if (s.job) {
        clearTimeout(s.job.timer);
        s.job.reject(new Error(`the ${this.name} pool was closed`));
      }
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
