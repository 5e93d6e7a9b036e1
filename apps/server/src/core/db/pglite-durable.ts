import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** What this file touches of PGlite's Emscripten module (0.5.x); not part of PGlite's typed surface. */
interface NodefsStream {
  nfd?: number;
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
    stream_ops: { fsync?: (stream: NodefsStream) => number };
    tryFSOperation<T>(f: () => T): T;
  };
}
type WasmImports = Record<string, Record<string, unknown>>;
type InstantiateWasm = (imports: WasmImports, done: (...args: unknown[]) => void) => unknown;
type EmscriptenOpts = Awaited<ReturnType<NodeFS['init']>>['emscriptenOpts'];

/**
 * PGlite's Node file layer with working fsync and fdatasync, so that PostgreSQL's own durability
 * (with `fsync` on) holds: a commit returns only after its write-ahead log is fdatasynced, and a
 * checkpoint fsyncs the data files it wrote before it removes or recycles the log that covered them.
 *
 * PGlite writes its data folder through Emscripten's NODEFS, which passes reads and writes to the
 * real files but has no fsync: PostgreSQL's fsync() reaches NODEFS's stream_ops, where there is
 * none (a silent success), and its fdatasync() reaches a system-call stub that only checks the file
 * descriptor (pglite#1107). PGlite therefore starts PostgreSQL with `-F` (fsync off). Both calls
 * are synchronous inside WebAssembly, so the real ones are too: `fs.fsyncSync`/`fs.fdatasyncSync`
 * on the file's Node descriptor. That blocks the event loop for the length of the sync, which costs
 * little beside the query itself (a query holds the event loop anyway; measured in bench/RESULTS.md).
 */
export class DurableNodeFS extends NodeFS {
  #module: EmscriptenModule | undefined;
  #fdatasyncInstalled = false;

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
            return checked === 0 ? this.#sync(this.#module!.FS.getStream(fd), fs.fdatasyncSync) : checked;
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
          },
        ],
      },
    };
  }

  /** Whether both calls are in place; checked after opening so that a PGlite update cannot quietly undo them. */
  get syncInstalled(): boolean {
    return this.#fdatasyncInstalled && typeof this.#module?.NODEFS.stream_ops.fsync === 'function';
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

/** PGlite's start parameters with `-F` (fsync off) removed, or kept where durability was turned off. */
export function durableStartParams(params: readonly string[], fsync: boolean): string[] {
  return fsync ? params.filter((p) => p !== '-F') : [...params];
}
