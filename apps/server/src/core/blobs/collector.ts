import type { Db } from '../db/index.js';
import { startRecurringJob, type QueueWorker } from '../jobs/index.js';
import type { BlobStore, ListedBlob } from './blob-store.js';

/**
 * Which of `hashes` something still points at. Core knows no mail: the areas that own blob references
 * (mailbox's messages, sending's uploads and outbox, encrypted's messages) each answer for their own tables through
 * their index.ts, and the app joins them (app.ts `appBlobReferences`).
 */
export type BlobReferences = (hashes: string[]) => Promise<Set<string>>;

export interface BlobCollection {
  /** Blobs old enough to be looked at (written before the grace period). */
  examined: number;
  /** Of those, removed: nothing referenced them and no put wrote them again meanwhile. */
  removed: number;
  /** Spool files (and a put's temporary files) left by a write that never finished. */
  spoolFiles: number;
}

/** Hashes asked about at once: one query per owning table per batch. */
const BATCH = 1000;

/** A message or an attachment still spooled after this long belongs to a process that stopped mid-way. */
export const SPOOL_MAX_AGE_MS = 24 * 3600_000;

/**
 * One pass of the blob collector, mark-and-sweep without a mark table: every blob of the store written before the
 * grace period is looked up, a batch at a time, in the owning areas' indexed `blob_hash` columns; one nothing
 * refers to is removed with `removeIfNotWrittenSince`, which keeps it when a put found it there after the pass began
 * (an ingest re-using the bytes of a deleted message between this pass's look-up and its commit). A blob written
 * or put within the grace period is not looked at: an ingest's put comes before its message's commit, and the grace
 * (BLOB_GC_GRACE_HOURS) is far longer than any ingest. Then the spool's leftovers older than `spoolMaxAgeMs`.
 *
 * Reference counts were the other way: a count per blob kept in step by every writer and every purge, in every area,
 * in their transactions — a missed decrement leaks, a missed increment loses mail. The sweep reads what the rows say,
 * so it cannot drift, and works through the BlobStore interface alone (files, S3, the database's small blobs).
 */
export async function collectBlobs(opts: {
  store: BlobStore;
  referenced: BlobReferences;
  graceMs: number;
  spoolMaxAgeMs?: number;
  now?: () => number;
}): Promise<BlobCollection> {
  const { store, referenced } = opts;
  const cutoff = new Date((opts.now ?? Date.now)() - opts.graceMs);
  const done: BlobCollection = { examined: 0, removed: 0, spoolFiles: 0 };
  let batch: ListedBlob[] = [];
  const sweep = async () => {
    const hashes = [...new Set(batch.map((b) => b.hash))];
    batch = [];
    const inUse = await referenced(hashes);
    for (const hash of hashes) {
      if (inUse.has(hash)) continue;
      if (store.removeIfNotWrittenSince) {
        if (await store.removeIfNotWrittenSince(hash, cutoff)) done.removed++;
      } else {
        await store.remove(hash);
        done.removed++;
      }
    }
  };
  for await (const blob of store.list()) {
    if (blob.modifiedAt.getTime() >= cutoff.getTime()) continue;
    done.examined++;
    batch.push(blob);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  done.spoolFiles = await store.sweepSpool(opts.spoolMaxAgeMs ?? SPOOL_MAX_AGE_MS);
  return done;
}

/** Hourly, once across every process on the database (a recurring job of the queue, core/jobs). */
export function startBlobCollector(opts: {
  db: Db;
  store: BlobStore;
  referenced: BlobReferences;
  graceMs: number;
  log: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
  intervalMs?: number;
  checkMs?: number;
}): QueueWorker {
  return startRecurringJob({
    db: opts.db,
    name: 'blob-collector',
    intervalMs: opts.intervalMs ?? 3600_000,
    checkMs: opts.checkMs,
    log: opts.log,
    run: async () => {
      const done = await collectBlobs(opts);
      if (done.removed > 0 || done.spoolFiles > 0) opts.log.info(done, 'blob collector');
    },
  });
}
