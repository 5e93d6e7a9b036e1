import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** What this file touches of PGlite's Emscripten module (0.5.x); not part of PGlite's typed surface. */
interface NodefsNode {
  name: string;
  parent?: NodefsNode;
}
interface NodefsStream {
  nfd?: number;
  node?: NodefsNode;
  stream_ops: unknown;
}
interface ErrnoError extends Error {
  errno: number;
}
interface EmscriptenModule {
  FS: {
    getStream(fd: number): NodefsStream | null;
    ErrnoError: new (errno: number) => ErrnoError;
  };
  NODEFS: {
    stream_ops: Record<string, ((...args: never[]) => unknown) | undefined> & {
      fsync?: (stream: NodefsStream) => number;
    };
    node_ops: Record<string, ((...args: never[]) => unknown) | undefined>;
    tryFSOperation<T>(f: () => T): T;
    realPath(node: NodefsNode): string;
  };
}
type WasmImports = Record<string, Record<string, unknown>>;
type InstantiateWasm = (imports: WasmImports, done: (...args: unknown[]) => void) => unknown;
type EmscriptenOpts = Awaited<ReturnType<NodeFS['init']>>['emscriptenOpts'];

/** A write-ahead log segment (pg_wal/000000010000000000000001), as opposed to its archive status or history files. */
/** Emscripten's O_TRUNC (its own numbering, as NODEFS.flagsForNodeMap has it). */
const O_TRUNC = 512;
const WAL_SEGMENT_NAME = /^[0-9A-F]{24}$/;

/**
 * PGlite's Node file layer with working fsync and fdatasync, so that PostgreSQL's own durability
 * (with `fsync` on) holds: a commit is answered only after its write-ahead log is fdatasynced, and a
 * checkpoint fsyncs the data files it wrote before it removes or recycles the log that covered them.
 *
 * PGlite writes its data folder through Emscripten's NODEFS, which passes reads and writes to the
 * real files but has no fsync: PostgreSQL's fsync() reaches NODEFS's stream_ops, where there is
 * none (a silent success), and its fdatasync() reaches a system-call stub that only checks the file
 * descriptor (pglite#1107). PGlite therefore starts PostgreSQL with `-F` (fsync off). Both calls
 * are synchronous inside WebAssembly.
 *
 * fsync() (data files at a checkpoint, a new WAL segment, folders) is done there and then, with
 * `fs.fsyncSync`. The WAL's fdatasync() — one per commit, the one that counts — is deferred: PostgreSQL is told it
 * succeeded, the segment is remembered, and the sync starts at once on libuv's thread pool (a descriptor of its
 * own), off the event loop that runs every query. The commits made while a sync runs share the next one: a group
 * commit. `durable()` resolves when every WAL write deferred before the call is on disk; the pool
 * (pglite-pool.ts) awaits it after each statement that ends outside a transaction, after handing the connection
 * on, so a caller (an SMTP session's 250) hears of its commit only once it is durable, while the next
 * transaction already runs.
 *
 * The WAL must still reach the disk before anything that depends on it. So before any write to a file that is
 * not a WAL segment (a data page, the commit log, pg_control), any truncation, rename, unlink or folder removal,
 * and before a WAL segment's descriptor is closed, every WAL segment deferred or being synced is fdatasynced
 * synchronously. PostgreSQL's own order (log before data) is then kept on disk. Other sessions may read a commit
 * before it is durable (as with PostgreSQL's `synchronous_commit = off`), but since every statement's caller waits
 * for all WAL written before it ended, nothing they answer can rest on it before it is. A failed deferred sync
 * fails every later wait (PostgreSQL would stop: data_sync_retry off).
 */
export class DurableNodeFS extends NodeFS {
  #module: EmscriptenModule | undefined;
  #fdatasyncInstalled = false;
  /** WAL segments written and not yet synced, by host path, with PostgreSQL's descriptor of each. */
  readonly #walDeferred = new Map<string, number>();
  /** WAL segments a deferred sync is running for now. */
  readonly #walSyncing = new Map<string, number>();
  /** Deferred fdatasyncs so far, and how many of them a finished sync covers. */
  #requested = 0;
  #durable = 0;
  #syncing: Promise<void> | undefined;
  #failed: Error | undefined;
  /** Deferred syncs done, and how many of those each covered (for the metrics and the bench). */
  readonly groupStats = { syncs: 0, commits: 0, ordered: 0 };
  /** false: every fdatasync runs there and then, on the event loop (as before the group commit). */
  readonly groupCommit: boolean;

  constructor(dataDir: string, options: { groupCommit?: boolean } = {}) {
    super(dataDir);
    this.groupCommit = options.groupCommit ?? true;
  }

  override async init(pg: PGlite, opts: EmscriptenOpts): Promise<{ emscriptenOpts: EmscriptenOpts }> {
    const { emscriptenOpts } = await super.init(pg, opts);
    const instantiate = (emscriptenOpts as { instantiateWasm?: InstantiateWasm }).instantiateWasm;
    if (!instantiate) throw new Error('PGlite changed: no instantiateWasm to install fdatasync through');
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        // The WebAssembly imports are the only way to fdatasync: the stub is called directly.
        instantiateWasm: ((imports, done) => {
          const env = imports.env;
          const stub = env?.__syscall_fdatasync as ((fd: number) => number) | undefined;
          if (!env || !stub) throw new Error('PGlite changed: no __syscall_fdatasync import to replace');
          env.__syscall_fdatasync = (fd: number) => {
            const checked = stub(fd); // 0, or -EBADF for a descriptor that is not open
            if (checked !== 0) return checked;
            const stream = this.#module!.FS.getStream(fd);
            const wal = this.#walPath(stream);
            if (wal === null || !this.groupCommit) return this.#sync(stream, fs.fdatasyncSync);
            return this.#defer(wal, stream!.nfd!);
          };
          this.#fdatasyncInstalled = true;
          return instantiate(imports, done);
        }) satisfies InstantiateWasm,
        preRun: [
          ...(emscriptenOpts.preRun ?? []),
          (mod) => {
            const module = mod as unknown as EmscriptenModule;
            this.#module = module;
            // Every NODEFS file and folder shares this object; fsync() arrives here through WASI fd_sync,
            // which turns a thrown ErrnoError into its error number.
            module.NODEFS.stream_ops.fsync = (stream) => {
              const failed = this.#sync(stream, fs.fsyncSync);
              if (failed) throw new module.FS.ErrnoError(-failed);
              return 0;
            };
            this.#orderAfterWal(module);
          },
        ],
      },
    };
  }

  /** Whether both calls are in place; checked after opening so that a PGlite update cannot quietly undo them. */
  get syncInstalled(): boolean {
    return (
      this.#fdatasyncInstalled &&
      typeof this.#module?.NODEFS.stream_ops.fsync === 'function' &&
      this.#orderInstalled
    );
  }

  #orderInstalled = false;

  /**
   * Wraps NODEFS's operations that could put something on disk that depends on the WAL: each first syncs the WAL
   * deferred so far (#flushWal). Writes to WAL segments themselves need nothing.
   */
  #orderAfterWal(module: EmscriptenModule): void {
    const { stream_ops: streamOps, node_ops: nodeOps } = module.NODEFS;
    const wrap = (
      ops: Record<string, ((...args: never[]) => unknown) | undefined>,
      name: string,
      before: (...args: never[]) => void,
    ) => {
      const original = ops[name];
      if (typeof original !== 'function') return false;
      ops[name] = (...args: never[]) => {
        before(...args);
        return original(...args);
      };
      return true;
    };
    const flush = () => this.#flushWal();
    const truncation = ((_: unknown, attr: { size?: number }) => {
      if (attr.size !== undefined) this.#flushWal();
    }) as (...args: never[]) => void;
    const installed = [
      // A page written to a file (not the log), except a zeroed one: a relation grows by zeroed pages, which
      // PostgreSQL itself writes without flushing the log (a new page's LSN is 0), and which recovery treats as new.
      wrap(streamOps, 'write', ((
        stream: NodefsStream,
        buffer: Uint8Array,
        offset: number,
        length: number,
      ) => {
        if (this.#pending && !this.#isWalSegment(stream) && !allZero(buffer, offset, length))
          this.#flushWal();
      }) as (...args: never[]) => void),
      wrap(streamOps, 'close', ((stream: NodefsStream) => {
        if (!this.#pending || !this.#isWalSegment(stream)) return;
        const wal = this.#walPath(stream);
        if (wal !== null && (this.#walDeferred.has(wal) || this.#walSyncing.has(wal))) this.#flushWal();
      }) as (...args: never[]) => void),
      // Opening with O_TRUNC empties a file as a truncation does.
      wrap(streamOps, 'open', ((stream: NodefsStream & { flags?: number }) => {
        if (this.#pending && ((stream.flags ?? 0) & O_TRUNC) !== 0) this.#flushWal();
      }) as (...args: never[]) => void),
      // A truncation (a chmod or a utime changes nothing PostgreSQL recovers from).
      wrap(nodeOps, 'setattr', truncation),
      wrap(nodeOps, 'rename', flush),
      wrap(nodeOps, 'unlink', flush),
      wrap(nodeOps, 'rmdir', flush),
    ];
    // A truncation through a descriptor (ftruncate), where this NODEFS has one.
    wrap(streamOps, 'setattr', truncation);
    this.#orderInstalled = installed.every(Boolean);
  }

  get #pending(): boolean {
    return this.#walDeferred.size > 0 || this.#walSyncing.size > 0;
  }

  /**
   * The host path of a stream's file when it is a WAL segment of the mounted data folder, else null. Read from the
   * node's name each time: a segment is made as `xlogtemp.N` and renamed, and the rename renames the node.
   */
  #walPath(stream: NodefsStream | null): string | null {
    const module = this.#module!;
    const node = stream?.node;
    if (!node || stream.stream_ops !== module.NODEFS.stream_ops || stream.nfd === undefined) return null;
    if (!WAL_SEGMENT_NAME.test(node.name) || node.parent?.name !== 'pg_wal') return null;
    return module.NODEFS.realPath(node);
  }

  #isWalSegment(stream: NodefsStream): boolean {
    const node = stream.node;
    return !!node && WAL_SEGMENT_NAME.test(node.name) && node.parent?.name === 'pg_wal';
  }

  /** A commit's fdatasync of its WAL segment: remembered, and a sync started unless one is running. */
  #defer(wal: string, nfd: number): number {
    if (this.#failed) return -5; // EIO: a deferred sync failed before, so this log cannot be trusted either
    this.#walDeferred.set(wal, nfd);
    this.#requested++;
    this.#startSync();
    return 0;
  }

  #startSync(): void {
    if (this.#syncing || this.#walDeferred.size === 0 || this.#failed) return;
    const upTo = this.#requested;
    for (const [wal, nfd] of this.#walDeferred) this.#walSyncing.set(wal, nfd);
    const paths = [...this.#walDeferred.keys()];
    this.#walDeferred.clear();
    this.#syncing = Promise.all(paths.map((p) => fdatasyncPath(p)))
      .then(
        () => {
          this.groupStats.syncs++;
          this.groupStats.commits += Math.max(0, upTo - this.#durable);
          this.#durable = Math.max(this.#durable, upTo);
        },
        (err: unknown) => {
          this.#failed = err instanceof Error ? err : new Error(String(err));
        },
      )
      .finally(() => {
        this.#walSyncing.clear();
        this.#syncing = undefined;
        this.#startSync();
      });
  }

  /**
   * Resolves once every WAL write PostgreSQL asked to sync before this call is on disk; rejects when a sync failed.
   * At once when there is none.
   */
  async durable(): Promise<void> {
    const want = this.#requested;
    while (this.#durable < want) {
      if (this.#failed) throw this.#failed;
      this.#startSync();
      const running = this.#syncing;
      if (!running) throw new Error('PGlite durability: a deferred WAL sync was lost');
      await running;
    }
    if (this.#failed) throw this.#failed;
  }

  /** Every deferred or running WAL sync, now and synchronously: before anything that depends on the log. */
  #flushWal(): void {
    if (!this.#pending) return;
    const module = this.#module!;
    const fds = new Set([...this.#walSyncing.values(), ...this.#walDeferred.values()]);
    try {
      for (const fd of fds) module.NODEFS.tryFSOperation(() => fs.fdatasyncSync(fd));
    } catch (err) {
      this.#failed = err instanceof Error ? err : new Error(String(err));
      throw err;
    }
    this.groupStats.ordered++;
    this.#walDeferred.clear();
    // The running sync, if any, covers nothing more than this one did; it clears its own set when it ends.
    this.#walSyncing.clear();
    this.#durable = this.#requested;
  }

  /** 0 or a negative error number, the way Emscripten's system calls answer. */
  #sync(stream: NodefsStream | null, sync: (fd: number) => void): number {
    const module = this.#module!;
    // Only files of the mounted data folder have a Node descriptor; Emscripten's in-memory files need no sync.
    if (!stream || stream.stream_ops !== module.NODEFS.stream_ops || stream.nfd === undefined) return 0;
    try {
      module.NODEFS.tryFSOperation(() => sync(stream.nfd!));
      return 0;
    } catch (err) {
      // PostgreSQL treats a failed fsync as data loss (data_sync_retry off: it stops).
      if (err instanceof module.FS.ErrnoError) return -err.errno;
      throw err;
    }
  }
}

function allZero(buffer: Uint8Array, offset: number, length: number): boolean {
  for (let i = offset, end = offset + length; i < end; i++) if (buffer[i] !== 0) return false;
  return true;
}

/**
 * fdatasync of a file through a descriptor of its own, on libuv's thread pool. A segment removed meanwhile was
 * synced before its removal (every unlink first syncs what is deferred or running), so ENOENT is not a failure.
 */
async function fdatasyncPath(file: string): Promise<void> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** PGlite's start parameters with `-F` (fsync off) removed, or kept where durability was turned off. */
export function durableStartParams(params: readonly string[], fsync: boolean): string[] {
  return fsync ? params.filter((p) => p !== '-F') : [...params];
}
