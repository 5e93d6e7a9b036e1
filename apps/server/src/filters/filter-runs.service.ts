import type { Logger } from 'pino';
import { SieveSyntaxError, type SieveResult } from '@mailroom/sieve';
import type { FilterRun, MailEvent } from '@mailroom/protocol';
import type { z } from 'zod';
import type { filterApplySchema } from '@mailroom/protocol';
import { findAccountById } from '../accounts/index.js';
import type { BlobStore } from '../core/blobs/index.js';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus } from '../core/events/index.js';
import { enqueueJob, runDueJob, startQueueWorker, wakeJobs, type JobHandler } from '../core/jobs/index.js';
import {
  ensureFolderPath,
  listFolders,
  markMessages,
  messagesAfterUid,
  moveMessages,
  type FolderRow,
} from '../mailbox/index.js';
import { marksReader } from './delivery-plan.js';
import { compileOptionsFor, compileOrRefuse } from './filters.service.js';
import {
  findRun,
  lockRun,
  insertRun,
  unfinishedRun,
  toFilterRun,
  updateRun,
  type FilterRunRow,
  type RunProgress,
} from './filter-runs.repository.js';
import { findFolder, folderPathOf } from './mailboxes.js';
import { runOnMessage } from './message-host.js';

/** Messages a batch looks at: each batch is one transaction, and other requests run between batches. */
export const filterRunBatchSize = 200;

/** The job queue's kind for a run (key: the run's id): each job run is one batch, queued again while there is more. */
export const FILTER_RUN_JOB = 'filter-run';

/**
 * POST filters/apply: queues a run of rules over one of the caller's folders (dry: only counted). One unfinished
 * run per folder (filter_run_active).
 */
export async function applyFilter(
  db: Db,
  accountId: number,
  body: z.output<typeof filterApplySchema>,
): Promise<FilterRun> {
  await compileOrRefuse(body.script, compileOptionsFor(body.script));
  const folder = (await listFolders(db, accountId)).find((f) => f.id === body.folder_id);
  if (!folder) throw new DomainError('entity_not_found');
  let row: FilterRunRow;
  try {
    row = await transact(db, async (trx) => {
      const run = await insertRun(trx, {
        account_id: accountId,
        folder_id: folder.id,
        script: body.script,
        dry_run: body.dry_run,
        total: folder.total_count,
      });
      await enqueueJob(trx, { kind: FILTER_RUN_JOB, key: String(run.id) });
      return run;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('filter_run_active');
    throw err;
  }
  wakeJobs(FILTER_RUN_JOB);
  return toFilterRun(row);
}

export async function getFilterRun(db: Db, accountId: number, id: number): Promise<FilterRun> {
  const row = await findRun(db, accountId, id);
  if (!row) throw new DomainError('entity_not_found');
  return toFilterRun(row);
}

export interface FilterRunDeps {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  log: Pick<Logger, 'warn' | 'error'>;
  /** Messages a batch looks at (filterRunBatchSize). */
  batchSize?: number;
}

/** What one message's run asks of the stored message. */
interface Decision {
  moveTo: number | 'trash' | null;
  flags: string[];
}

/**
 * What a script's outcome means for a message already stored in a folder: a keep (or the implicit keep) leaves
 * it there, else the first fileinto moves it, else a discard moves it to Trash; the flags of the keeps and
 * fileintos are added. Redirect, reject and vacation are not done to stored mail.
 */
function decide(
  outcome: SieveResult,
  folders: FolderRow[],
  created: Map<string, number>,
): Decision | { create: string } | null {
  if (outcome.status !== 'success') return null;
  let kept = outcome.implicitKeep !== null;
  let moveTo: number | null = null;
  let discarded = false;
  const flags = [...(outcome.implicitKeep?.flags ?? [])];
  for (const action of outcome.actions) {
    if (action.type === 'keep') {
      kept = true;
      flags.push(...action.flags);
    } else if (action.type === 'fileinto') {
      const found = findFolder(folders, action.mailbox);
      const id = found?.id;
      const made = created.get(folderPathOf(action.mailbox).toLowerCase());
      if (id === undefined && made === undefined) {
        if (action.create) return { create: folderPathOf(action.mailbox) };
        continue;
      }
      moveTo ??= id ?? made!;
      flags.push(...action.flags);
    } else if (action.type === 'discard') discarded = true;
  }
  if (kept) return { moveTo: null, flags };
  if (moveTo !== null) return { moveTo, flags };
  return { moveTo: discarded ? 'trash' : null, flags };
}

/** What one batch decided: the run's progress after it, and the changes to make (none in a dry run). */
interface BatchPlan {
  progress: RunProgress;
  seen: number[];
  flagged: number[];
  labelled: Map<number, number[]>;
  moves: Map<number, number[]>;
}

/**
 * One batch of a run (its job): the slow part (reading the messages' blobs, running the script) happens outside any
 * transaction: on embedded PGlite a transaction holds the only connection. Then one short transaction locks the run
 * row and applies the batch only if the run is still where this batch started. The job is queued again at once while
 * the run has more to do, behind the other runs waiting.
 */
export function filterRunHandler(deps: FilterRunDeps): JobHandler {
  return async (job) => {
    const row = await unfinishedRun(deps.db, Number(job.key));
    if (!row) return;
    let plan: BatchPlan;
    try {
      plan = await planBatch(deps.db, deps.blobs, row, deps.batchSize ?? filterRunBatchSize);
    } catch (err) {
      if (!(err instanceof DomainError) && !(err instanceof SieveSyntaxError)) throw err;
      plan = emptyPlan({ ...progressOf(row), state: 'failed', error: err.message });
    }
    const published = await transact(deps.db, async (trx) => {
      const locked = await lockRun(trx, row.id);
      if (!locked || locked.cursor_uid !== row.cursor_uid || locked.done !== row.done) return null;
      const events = row.dry_run ? [] : await applyBatch(trx, row, plan);
      const updated = await updateRun(trx, row.id, plan.progress);
      return [...events, { event: 'filterRun', run: toFilterRun(updated) } as const];
    });
    if (published) await emit(deps.db, deps, row.account_id, published);
    return plan.progress.state === 'running' ? { again: 0 } : undefined;
  };
}

/** Claims the filter-run job due longest and runs its batch; false when none was due (tests work runs through). */
export async function runFilterBatch(deps: FilterRunDeps): Promise<boolean> {
  return runDueJob({ db: deps.db, kind: FILTER_RUN_JOB, handler: filterRunHandler(deps), log: deps.log });
}

const progressOf = (row: FilterRunRow): RunProgress => ({
  state: 'running',
  done: row.done,
  cursor_uid: row.cursor_uid,
  matched: row.matched,
  moved: row.moved,
  flagged: row.flagged,
  labelled: row.labelled,
  deleted: row.deleted,
  skipped: row.skipped,
  error: null,
});

const emptyPlan = (progress: RunProgress): BatchPlan => ({
  progress,
  seen: [],
  flagged: [],
  labelled: new Map(),
  moves: new Map(),
});

async function planBatch(db: Db, blobs: BlobStore, row: FilterRunRow, batchSize: number): Promise<BatchPlan> {
  const accountId = row.account_id;
  const plan = emptyPlan(progressOf(row));
  const { progress } = plan;
  const compileOptions = compileOptionsFor(row.script);
  // Checked first to fail the run at once if it does not compile (in a Sieve worker, as each message's run).
  await compileOrRefuse(row.script, compileOptions);
  const script = { source: row.script, compileOptions };
  const messages = await messagesAfterUid(db, accountId, row.folder_id, row.cursor_uid, batchSize);
  if (!messages.length) {
    progress.state = 'done';
    return plan;
  }
  const [folders, account] = await Promise.all([listFolders(db, accountId), findAccountById(db, accountId)]);
  const trash = folders.find((f) => f.system === 'trash')!;
  const marksOf = marksReader(db, accountId);
  const created = new Map<string, number>();
  for (const message of messages) {
    progress.done++;
    progress.cursor_uid = message.uid;
    const raw = await blobs.get(message.blob_hash).catch(() => null);
    if (!raw) {
      progress.skipped++;
      continue;
    }
    const outcome = await runOnMessage(script, raw, {
      envelopeFrom: /^return-path:[ \t]*<([^>]*)>/im.exec(raw.toString('utf8', 0, 65_536))?.[1] ?? '',
      envelopeTo: account?.email ?? '',
      // Read once for the batch; a folder this batch made counts too.
      mailboxes: async () => [...folders.map((f) => f.name), ...created.keys()],
    });
    if (!outcome || outcome.status !== 'success') {
      progress.skipped++;
      continue;
    }
    let decision = decide(outcome, folders, created);
    while (decision && 'create' in decision) {
      // A dry run creates nothing: the folder it would make stands for itself.
      let id = -created.size - 1;
      if (!row.dry_run) {
        try {
          id = (await ensureFolderPath(db, accountId, decision.create)).id;
        } catch (err) {
          // A name that cannot be a folder: the message stays where it is.
          if (!(err instanceof DomainError)) throw err;
          id = row.folder_id;
        }
      }
      created.set(decision.create.toLowerCase(), id);
      decision = decide(outcome, folders, created);
    }
    if (!decision) continue;
    const marks = await marksOf(decision.flags);
    const destination = decision.moveTo === 'trash' ? trash.id : decision.moveTo;
    const moving = destination !== null && destination !== row.folder_id;
    const seen = marks.flags.seen && !message.seen;
    const flagged = marks.flags.flagged && !message.flagged;
    const newLabels = marks.labels.filter((l) => !message.labels.includes(l));
    if (seen) plan.seen.push(message.uid);
    if (flagged) plan.flagged.push(message.uid);
    for (const l of newLabels) plan.labelled.set(l, [...(plan.labelled.get(l) ?? []), message.uid]);
    if (moving) plan.moves.set(destination, [...(plan.moves.get(destination) ?? []), message.uid]);
    if (seen || flagged) progress.flagged++;
    if (newLabels.length) progress.labelled++;
    if (moving && decision.moveTo === 'trash') progress.deleted++;
    else if (moving) progress.moved++;
    if (moving || seen || flagged || newLabels.length) progress.matched++;
  }
  return plan;
}

/** The batch's changes, through mail's own mark and move (flags and labels first, in the folder; then moves). */
async function applyBatch(trx: Trx, row: FilterRunRow, plan: BatchPlan): Promise<MailEvent[]> {
  const accountId = row.account_id;
  const events: MailEvent[] = [];
  const here = (uids: number[]) => [{ folder_id: row.folder_id, message_uids: uids }];
  const mark = async (request: Parameters<typeof markMessages>[2]) =>
    events.push(...(await markMessages(trx, accountId, request)).events);
  if (plan.seen.length) await mark({ flag: 'seen', folder_messages: here(plan.seen) });
  if (plan.flagged.length) await mark({ flag: 'flagged', folder_messages: here(plan.flagged) });
  for (const [labelId, uids] of plan.labelled)
    await mark({ flag: 'label', label_id: labelId, folder_messages: here(uids) });
  for (const [destination, uids] of plan.moves)
    events.push(
      ...(await moveMessages(trx, accountId, { destination_id: destination, folder_messages: here(uids) }))
        .events,
    );
  return events;
}

/** Works through queued runs, a batch at a time (a job each), other runs' batches between; woken by a new run. */
export function startFilterRuns(deps: FilterRunDeps & { pollMs?: number }): { stop(): Promise<void> } {
  return startQueueWorker({
    db: deps.db,
    name: 'filter-runs',
    log: deps.log,
    pollMs: deps.pollMs ?? 5_000,
    handlers: { [FILTER_RUN_JOB]: filterRunHandler(deps) },
  });
}
