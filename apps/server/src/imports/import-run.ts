import type { MailEvent } from '@mailroom/protocol';
import { requireAccount } from '../accounts/index.js';
import type { BlobStore } from '../core/blobs/index.js';
import type { Db } from '../core/db/index.js';
import { collectGarbageIfGrown } from '../core/idle-collection.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import {
  expireLeasesOf,
  goneLocalOwners,
  liveLeaseOwners,
  runDueJob,
  startQueueWorker,
  type JobContext,
  type JobHandler,
} from '../core/jobs/index.js';
import type { ImportItem } from './import-item.js';
import { ImportRefused } from './import-item.js';
import {
  commitBatch,
  LeaseLost,
  prepareBatch,
  QuotaReached,
  type BatchContext,
  type PreparedBatch,
} from './import-batch.js';
import { countItems, openImport, type ImportFile } from './import-source.js';
import {
  progressOf,
  saveMailImportProgress,
  startMailImportRun,
  toMailImport,
  type MailImportProgress,
  type MailImportRow,
} from './imports.repository.js';
import { MAIL_IMPORT_JOB } from './imports.service.js';
import { importUploadBlobs } from './import-uploads.repository.js';

export interface MailImportDeps {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
  /** Messages and bytes one batch (one transaction) holds at most (default 200 messages, 16 MiB). */
  batchMessages?: number;
  batchBytes?: number;
  /**
   * Where a batch's time went (benches): its preparation (parse, blobs, folders) running beside the commit before,
   * how long the commit then waited for it, and its own commit (the transaction through ingest).
   */
  onBatchTimes?: (times: { messages: number; prepareMs: number; waitMs: number; commitMs: number }) => void;
  /** Called after each committed batch (tests stop or kill an import there). */
  afterBatch?: (progress: MailImportProgress) => void | Promise<void>;
}

/** An import's lease: renewed while it runs; one whose process stopped is taken over when it runs out. */
const IMPORT_LEASE_MS = 120_000;

export function mailImportHandler(deps: MailImportDeps): JobHandler {
  return async (job, ctx) => runImport(deps, Number(job.key), ctx);
}

/** Claims the import job due longest and does the import through; false when none was due (tests, the CLI). */
export async function runMailImport(deps: MailImportDeps): Promise<boolean> {
  return runDueJob({
    db: deps.db,
    kind: MAIL_IMPORT_JOB,
    handler: mailImportHandler(deps),
    log: deps.log,
    leaseMs: IMPORT_LEASE_MS,
  });
}

/**
 * The imports of every process's accounts, a job of the queue: one at a time per process. Before each look the
 * leases of this host's processes that are gone (a server killed mid-import) are ended, so it resumes at once.
 */
export function startMailImports(deps: MailImportDeps) {
  return startQueueWorker({
    db: deps.db,
    name: 'mail-imports',
    log: deps.log,
    handlers: { [MAIL_IMPORT_JOB]: mailImportHandler(deps) },
    leaseMs: IMPORT_LEASE_MS,
    beforePass: async () => {
      const gone = goneLocalOwners(await liveLeaseOwners(deps.db, [MAIL_IMPORT_JOB]));
      if ((await expireLeasesOf(deps.db, [MAIL_IMPORT_JOB], gone)) > 0)
        deps.log.warn({ owners: gone }, 'took up the mail imports of a process that is gone');
    },
  });
}

async function sourceOf(db: Db, row: MailImportRow): Promise<ImportFile | null> {
  if (row.source_path) return { path: row.source_path };
  if (row.source_blob) return { blobHash: row.source_blob };
  if (row.source_upload) return { parts: await importUploadBlobs(db, row.source_upload) };
  return null;
}

/**
 * Reads the file from its start, passing over the items a run before committed (`position`), and stores the rest
 * in batches (import-batch.ts); each batch commits the import's progress with its messages and tells the account's
 * tabs once. The file's items are counted first (once) for the progress bar. A stopping process gives the job back
 * between batches: it resumes where it was.
 */
async function runImport(deps: MailImportDeps, id: number, job: JobContext): Promise<'release' | void> {
  const { db } = deps;
  const row = await startMailImportRun(db, id);
  if (!row) return;
  const accountId = row.account_id;
  let progress: MailImportProgress = { ...progressOf(row), state: 'running', error: null };
  const publish = async (saved: MailImportRow, more: MailEvent[] = []) =>
    emit(db, deps, accountId, [...more, { event: 'mailImport', import: toMailImport(saved) }]);
  const finish = async (state: 'done' | 'failed', error: string | null) => {
    progress = { ...progress, state, error, total: Math.max(progress.total, progress.position) };
    await publish(await saveMailImportProgress(db, id, progress), [{ event: 'updateMailboxList' }]);
  };
  const file = await sourceOf(db, row);
  if (!file) return void (await finish('failed', 'import_file_unreadable'));
  const account = await requireAccount(db, accountId);
  const ctx: BatchContext = {
    importId: id,
    lost: job.lost,
    db,
    blobs: deps.blobs,
    accountId,
    accountEmail: account.email,
    filters: row.filters,
    folders: new Map(),
  };
  const maxMessages = deps.batchMessages ?? 200;
  const maxBytes = deps.batchBytes ?? 16 * 2 ** 20;
  try {
    if (!progress.total) {
      progress.total = await countItems(deps.blobs, file, row.file_name);
      await publish(await saveMailImportProgress(db, id, progress));
    }
    const { format, items } = await openImport(deps.blobs, file, row.file_name);
    progress.format = format;
    let batch: ImportItem[] = [];
    let bytes = 0;
    // A batch is prepared (parsed, its blobs written) while the one before it commits.
    let pending: Promise<PreparedBatch & { prepareMs: number }> | null = null;
    const commitPending = async () => {
      if (!pending) return;
      const waited = performance.now();
      const ready = await pending;
      pending = null;
      const committing = performance.now();
      const outcome = await commitBatch(ctx, ready, progress);
      deps.onBatchTimes?.({
        messages: ready.prepared.length,
        prepareMs: ready.prepareMs,
        waitMs: committing - waited,
        commitMs: performance.now() - committing,
      });
      progress = outcome.progress;
      const events = lastPerFolder(outcome.events);
      await publish(
        await saveMailImportProgress(db, id, progress),
        outcome.listChanged ? [...events, { event: 'updateMailboxList' }] : events,
      );
      collectGarbageIfGrown();
      await deps.afterBatch?.(progress);
    };
    const flush = async () => {
      const start = performance.now();
      const next = prepareBatch(ctx, batch).then((b) => ({ ...b, prepareMs: performance.now() - start }));
      // Awaited below; a failure meanwhile is not an unhandled one.
      next.catch(() => undefined);
      batch = [];
      bytes = 0;
      await commitPending();
      pending = next;
    };
    let refused: ImportRefused | null = null;
    const reading = async function* () {
      try {
        yield* items;
      } catch (err) {
        // What was read before the file turned out bad is stored; then the import stops with why.
        if (!(err instanceof ImportRefused)) throw err;
        refused = err;
      }
    };
    for await (const item of reading()) {
      if (item.item <= progress.position) continue;
      batch.push(item);
      if (item.kind === 'message') bytes += item.raw.length;
      if (batch.length >= maxMessages || bytes >= maxBytes) {
        await flush();
        if (job.signal.aborted) {
          await items.return(undefined);
          await commitPending();
          return job.lost() ? undefined : 'release';
        }
      }
    }
    if (batch.length) await flush();
    await commitPending();
    if (refused) throw refused;
    await finish('done', null);
  } catch (err) {
    if (err instanceof LeaseLost) return;
    if (err instanceof QuotaReached) {
      progress = err.progress;
      return void (await finish('failed', 'quota_exceeded'));
    }
    if (err instanceof ImportRefused) return void (await finish('failed', err.code));
    throw err;
  }
}

/** The latest counters of each folder a batch touched. */
function lastPerFolder(events: MailEvent[]): MailEvent[] {
  const last = new Map<number, MailEvent>();
  for (const e of events) if (e.event === 'updateMailbox') last.set(e.folder_id, e);
  return [...last.values()];
}
