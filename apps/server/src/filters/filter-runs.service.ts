import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { compile, run as runScript, SieveSyntaxError } from '@mailroom/sieve';
import type { FilterRun, MailEvent } from '@mailroom/protocol';
import type { z } from 'zod';
import type { filterApplySchema } from '@mailroom/protocol';
import { findAccountById } from '../accounts/index.js';
import type { BlobStore } from '../core/blobs/index.js';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { publishAfterCommit, type EventBus } from '../core/events/index.js';
import { startPeriodicJob } from '../core/jobs/index.js';
import { ensureFolderPath, listFolders, markMessages, moveMessages, type FolderRow } from '../mail/index.js';
import { messagesAfterUid } from '../mailbox/index.js';
import { marksReader } from './delivery-plan.js';
import { compileOptionsFor, compileOrRefuse } from './filters.service.js';
import {
  claimRun,
  findRun,
  insertRun,
  toFilterRun,
  updateRun,
  type FilterRunRow,
  type RunProgress,
} from './filter-runs.repository.js';
import { findFolder, folderPathOf } from './mailboxes.js';
import { sieveHostFor } from './message-host.js';

/** Messages a batch looks at: each batch is one transaction, and other requests run between batches. */
export const filterRunBatchSize = 200;

const wake = new EventEmitter().setMaxListeners(0);

/**
 * POST filters/apply: queues a run of rules over one of the caller's folders (dry: only counted). One unfinished
 * run per folder (filter_run_active).
 */
export async function applyFilter(
  db: Db,
  accountId: number,
  body: z.output<typeof filterApplySchema>,
): Promise<FilterRun> {
  compileOrRefuse(body.script, compileOptionsFor(body.script));
  const folder = (await listFolders(db, accountId)).find((f) => f.id === body.folder_id);
  if (!folder) throw new DomainError('entity_not_found');
  let row: FilterRunRow;
  try {
    row = await insertRun(db, {
      account_id: accountId,
      folder_id: folder.id,
      script: body.script,
      dry_run: body.dry_run,
      total: folder.total_count,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('filter_run_active');
    throw err;
  }
  wake.emit('wake');
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
  outcome: ReturnType<typeof runScript>,
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

/** One batch of the longest-waiting unfinished run, in one transaction; false when there was none. */
export async function runFilterBatch(deps: FilterRunDeps): Promise<boolean> {
  let publish: { accountId: number; events: MailEvent[] } | null = null;
  const didWork = await transact(deps.db, async (trx) => {
    const row = await claimRun(trx);
    if (!row) return false;
    const progress: RunProgress = {
      state: 'running',
      done: row.done,
      cursor_uid: row.cursor_uid,
      matched: row.matched,
      moved: row.moved,
      flagged: row.flagged,
      labelled: row.labelled,
      deleted: row.deleted,
      error: null,
    };
    const events: MailEvent[] = [];
    try {
      events.push(...(await batch(trx, deps.blobs, row, progress, deps.batchSize ?? filterRunBatchSize)));
    } catch (err) {
      if (!(err instanceof DomainError) && !(err instanceof SieveSyntaxError)) throw err;
      progress.state = 'failed';
      progress.error = err.message;
    }
    const updated = await updateRun(trx, row.id, progress);
    publish = {
      accountId: row.account_id,
      events: [...events, { event: 'filterRun', run: toFilterRun(updated) }],
    };
    return true;
  });
  if (publish) {
    const { accountId, events } = publish as { accountId: number; events: MailEvent[] };
    await publishAfterCommit(deps.events, deps.log, accountId, events);
  }
  return didWork;
}

async function batch(
  trx: Trx,
  blobs: BlobStore,
  row: FilterRunRow,
  progress: RunProgress,
  batchSize: number,
): Promise<MailEvent[]> {
  const accountId = row.account_id;
  const script = compile(row.script, {}, compileOptionsFor(row.script));
  const messages = await messagesAfterUid(trx, accountId, row.folder_id, row.cursor_uid, batchSize);
  if (!messages.length) {
    progress.state = 'done';
    return [];
  }
  const [folders, account] = await Promise.all([
    listFolders(trx, accountId),
    findAccountById(trx, accountId),
  ]);
  const trash = folders.find((f) => f.system === 'trash')!;
  const marksOf = marksReader(trx, accountId);
  const created = new Map<string, number>();
  const seen: number[] = [];
  const flagged: number[] = [];
  const labelled = new Map<number, number[]>();
  const moves = new Map<number, number[]>();
  for (const message of messages) {
    progress.done++;
    progress.cursor_uid = message.uid;
    const raw = await blobs.get(message.blob_hash).catch(() => null);
    if (!raw) continue;
    const host = await sieveHostFor(raw, {
      envelopeFrom: /^return-path:[ \t]*<([^>]*)>/im.exec(raw.toString('utf8', 0, 65_536))?.[1] ?? '',
      envelopeTo: account?.email ?? '',
      mailboxExists: (name) =>
        findFolder(folders, name) !== undefined || created.has(folderPathOf(name).toLowerCase()),
    });
    const outcome = runScript(script, host);
    let decision = decide(outcome, folders, created);
    while (decision && 'create' in decision) {
      // A dry run creates nothing: the folder it would make stands for itself.
      let id = -created.size - 1;
      if (!row.dry_run) {
        try {
          id = (await ensureFolderPath(trx, accountId, decision.create)).id;
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
    const flagging = (marks.flags.seen && !message.seen) || (marks.flags.flagged && !message.flagged);
    const newLabels = marks.labels.filter((l) => !message.labels.includes(l));
    if (marks.flags.seen && !message.seen) seen.push(message.uid);
    if (marks.flags.flagged && !message.flagged) flagged.push(message.uid);
    for (const l of newLabels) labelled.set(l, [...(labelled.get(l) ?? []), message.uid]);
    if (moving) moves.set(destination, [...(moves.get(destination) ?? []), message.uid]);
    if (flagging) progress.flagged++;
    if (newLabels.length) progress.labelled++;
    if (moving && decision.moveTo === 'trash') progress.deleted++;
    else if (moving) progress.moved++;
    if (moving || flagging || newLabels.length) progress.matched++;
  }
  if (row.dry_run) return [];
  const events: MailEvent[] = [];
  const here = (uids: number[]) => [{ folder_id: row.folder_id, message_uids: uids }];
  if (seen.length)
    events.push(
      ...(await markMessages(trx, accountId, { flag: 'seen', folder_messages: here(seen) })).events,
    );
  if (flagged.length)
    events.push(
      ...(await markMessages(trx, accountId, { flag: 'flagged', folder_messages: here(flagged) })).events,
    );
  for (const [labelId, uids] of labelled)
    events.push(
      ...(
        await markMessages(trx, accountId, { flag: 'label', label_id: labelId, folder_messages: here(uids) })
      ).events,
    );
  for (const [destination, uids] of moves)
    events.push(
      ...(await moveMessages(trx, accountId, { destination_id: destination, folder_messages: here(uids) }))
        .events,
    );
  return events;
}

/** Works through queued runs, a batch at a time, yielding to other work between batches; woken by a new run. */
export function startFilterRuns(deps: FilterRunDeps & { pollMs?: number }): { stop(): Promise<void> } {
  let stopped = false;
  const job = startPeriodicJob({
    name: 'filter-runs',
    intervalMs: deps.pollMs ?? 5_000,
    log: deps.log,
    run: async () => {
      while (!stopped && (await runFilterBatch(deps))) await new Promise((r) => setImmediate(r));
    },
  });
  const onWake = () => job.wake();
  wake.on('wake', onWake);
  return {
    async stop() {
      stopped = true;
      wake.off('wake', onWake);
      await job.stop();
    },
  };
}
