import { createHash } from 'node:crypto';
import type { MailEvent, MailImportReason, MailImportReportEntry } from '@mailroom/protocol';
import { IMPORT_REPORT_LISTED } from '@mailroom/protocol';
import { blobHash, type BlobStore } from '../core/blobs/index.js';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { planDelivery, type DeliveryPlan } from '../filters/index.js';
import {
  ensureFolderPath,
  ensureLabels,
  ingestMany,
  IngestFailed,
  lockAccount,
  messageBlobsFor,
  normaliseMessageId,
  parseMessage,
  systemFolder,
  type IngestSource,
  type IngestTarget,
  type MessageBlobs,
  type ParsedMessage,
} from '../mailbox/index.js';
import type { ImportItem } from './import-item.js';
import {
  claimImportKeys,
  importedKeys,
  saveMailImportProgress,
  storedBlobHashes,
  type MailImportProgress,
} from './imports.repository.js';
import {
  flagsFromHeader,
  gmailLabels,
  headerFields,
  receivedDate,
  type ImportFlags,
} from './message-head.js';
import { archivePlacement, gmailPlacement, type Placement } from './placement.js';

/**
 * One batch of an import: its messages' keys and places worked out (pure), those the account has already left out,
 * the others parsed and their large blobs written, then one transaction — the account's lock, the keys claimed, the
 * messages (and their small blobs) stored through `ingest` at once, the import's progress — so a kill anywhere
 * either stores the whole batch with its progress or none of it.
 */

export interface BatchContext {
  importId: number;
  /** Whether the job's lease was lost (another process took the import over): its batch is rolled back. */
  lost: () => boolean;
  db: Db;
  blobs: BlobStore;
  accountId: number;
  accountEmail: string;
  filters: boolean;
  /** Folder ids by path or system name, kept across the batches of a run. */
  folders: Map<string, number>;
}

interface Candidate {
  item: Extract<ImportItem, { kind: 'message' }>;
  key: string;
  hash: string;
  flags: ImportFlags;
  placement: Placement;
  receivedAt: (sentAt: Date | null) => Date;
}

interface Prepared extends Candidate {
  parsed: ParsedMessage;
  blobs: MessageBlobs;
  folderId: number;
  remark?: MailImportReason;
  plan: DeliveryPlan | null;
}

/** The key an account's imported message is known by: its Message-ID and its bytes' hash, or the hash alone. */
export function importKey(messageId: string | null, hash: string): string {
  if (!messageId) return hash;
  return createHash('sha256').update(`${messageId}\n${hash}`).digest('hex');
}

/** Another process holds the import now: this one writes nothing more. */
export class LeaseLost extends Error {
  constructor() {
    super('the import job lease was lost');
  }
}

/** The quota stopped the import: what fitted is stored. */
export class QuotaReached extends Error {
  constructor(
    readonly progress: MailImportProgress,
    readonly events: MailEvent[],
  ) {
    super('quota_exceeded');
  }
}

export function note(progress: MailImportProgress, entry: MailImportReportEntry): void {
  if (progress.report.length < IMPORT_REPORT_LISTED) progress.report.push(entry);
}

function candidateOf(item: Extract<ImportItem, { kind: 'message' }>): Candidate {
  const fields = headerFields(item.raw);
  const hash = blobHash(item.raw);
  const messageId = normaliseMessageId(fields.find(([n]) => n === 'message-id')?.[1] ?? null);
  const labels = gmailLabels(fields);
  const placement = labels ? gmailPlacement(labels) : archivePlacement(item.folders);
  return {
    item,
    key: importKey(messageId, hash),
    hash,
    flags: flagsFromHeader(fields),
    placement,
    receivedAt: (sentAt) => receivedDate(fields, item.fileDate, sentAt),
  };
}

/** A batch read and made ready outside any transaction: what it skips, what is known, what is to store. */
export interface PreparedBatch {
  items: ImportItem[];
  skipped: MailImportReportEntry[];
  /** Imported before (or twice in this batch). */
  known: number;
  prepared: Prepared[];
  /** Messages SMTP or a collector brought before, by item: their keys are recorded, nothing stored. */
  presentKeys: Map<number, string>;
  listChanged: boolean;
}

/**
 * The part of a batch done outside the transaction (and while the batch before commits): what it skips, which keys
 * the account has already, and for the others the parse, the blobs (large ones written before any row refers to
 * them, small ones made into rows for the batch's statement), the folder (made when missing) and, when asked, the
 * filters' plan.
 */
export async function prepareBatch(ctx: BatchContext, items: ImportItem[]): Promise<PreparedBatch> {
  const skipped: MailImportReportEntry[] = [];
  const candidates: Candidate[] = [];
  for (const item of items) {
    if (item.kind === 'skipped') {
      skipped.push({ item: item.item, where: item.where, reason: item.reason, stored: false });
      continue;
    }
    const candidate = candidateOf(item);
    if (candidate.flags.deleted)
      skipped.push({ item: item.item, where: item.where, reason: 'deleted', stored: false });
    else candidates.push(candidate);
  }
  const imported = await importedKeys(
    ctx.db,
    ctx.accountId,
    candidates.map((c) => c.key),
  );
  const fresh: Candidate[] = [];
  const seen = new Set<string>();
  let known = 0;
  for (const c of candidates) {
    if (imported.has(c.key) || seen.has(c.key)) known++;
    else fresh.push(c);
    seen.add(c.key);
  }
  const present = await storedBlobHashes(
    ctx.db,
    ctx.accountId,
    fresh.map((c) => c.hash),
  );
  const presentKeys = new Map(fresh.filter((c) => present.has(c.hash)).map((c) => [c.item.item, c.key]));
  let listChanged = false;
  const toStore = fresh.filter((c) => !present.has(c.hash));
  // The blobs: a small one the database keeps is written by the statement storing the batch (one commit for
  // blobs and messages), a larger one now, before any row names it.
  const written = Promise.all(toStore.map((c) => messageBlobsFor(ctx.blobs, c.item.raw)));
  written.catch(() => undefined);
  const prepared = await Promise.all(
    toStore.map(async (c, i): Promise<Prepared> => {
      const [parsed, folder, messageBlobs] = await Promise.all([
        parseMessage(c.item.raw),
        folderOf(ctx, c.placement),
        written,
      ]);
      if (folder.created) listChanged = true;
      const plan = ctx.filters
        ? await planDelivery(ctx.db, ctx.accountId, () => Promise.resolve(c.item.raw), {
            from: '',
            to: ctx.accountEmail,
          }).catch(() => null)
        : null;
      const remark = folder.refused ? ('folder_refused' as const) : c.item.remark;
      const blobs: MessageBlobs = messageBlobs[i]!;
      return { ...c, parsed, blobs, folderId: folder.id, plan, ...(remark ? { remark } : {}) };
    }),
  );
  if (prepared.some((p) => p.placement.labels.length)) listChanged = true;
  return { items, skipped, known, prepared, presentKeys, listChanged };
}

/**
 * Commits a prepared batch and answers the progress after it (committed with it) and the events to publish; throws
 * QuotaReached when the account's quota stopped it (what fitted before is committed).
 */
export async function commitBatch(
  ctx: BatchContext,
  batch: PreparedBatch,
  before: MailImportProgress,
): Promise<{ progress: MailImportProgress; events: MailEvent[]; listChanged: boolean }> {
  const { items, prepared, presentKeys, listChanged } = batch;
  const progress: MailImportProgress = {
    ...before,
    report: [...before.report],
    skipped: before.skipped + batch.skipped.length,
    already_here: before.already_here + batch.known,
  };
  for (const entry of batch.skipped) note(progress, entry);
  const position = items.length ? items[items.length - 1]!.item : progress.position;
  const commit = async (base: MailImportProgress, some: Prepared[], keysOnly: string[], upTo: number) => {
    const after: MailImportProgress = { ...base, report: [...base.report], position: upTo };
    const events: MailEvent[] = [];
    await transact(ctx.db, async (trx) => {
      await lockAccount(trx, ctx.accountId);
      const claimed = await claimImportKeys(trx, ctx.accountId, [...some.map((p) => p.key), ...keysOnly]);
      after.already_here += keysOnly.length;
      const labelIds = await ensureLabels(
        trx,
        ctx.accountId,
        some.flatMap((p) => p.placement.labels),
      );
      const toStore = some.filter((p) => claimed.has(p.key));
      after.already_here += some.length - toStore.length;
      const ingested = await ingestMany(
        trx,
        ctx.blobs,
        toStore.map((p) => ingestInput(ctx, p, labelIds)),
      );
      // The counters of each folder, not a `new` event per message: a batch tells the tabs once.
      for (const result of ingested)
        for (const [, list] of result.events) events.push(...list.filter((e) => e.event !== 'new'));
      for (const p of toStore) {
        after.stored++;
        if (p.remark) note(after, { item: p.item.item, where: p.item.where, reason: p.remark, stored: true });
      }
      await saveMailImportProgress(trx, ctx.importId, after);
      if (ctx.lost()) throw new LeaseLost();
    });
    return { after, events };
  };
  try {
    const { after, events } = await commit(progress, prepared, [...presentKeys.values()], position);
    return { progress: after, events, listChanged };
  } catch (err) {
    if (!isQuota(err)) throw err;
  }
  // Over the quota: what fits is stored one message at a time, up to the first that does not.
  let current = progress;
  const events: MailEvent[] = [];
  const byItem = new Map(prepared.map((p) => [p.item.item, p]));
  for (const item of items) {
    const p = byItem.get(item.item);
    const present = presentKeys.get(item.item);
    try {
      const done = await commit(current, p ? [p] : [], present ? [present] : [], item.item);
      current = done.after;
      events.push(...done.events);
    } catch (err) {
      if (!isQuota(err)) throw err;
      throw new QuotaReached(current, events);
    }
  }
  return { progress: current, events, listChanged };
}

function isQuota(err: unknown): boolean {
  const cause = err instanceof IngestFailed ? err.cause : err;
  return cause instanceof DomainError && cause.code === 'quota_exceeded';
}

function ingestInput(
  ctx: BatchContext,
  p: Prepared,
  labelIds: Map<string, number>,
): { source: IngestSource; targets: IngestTarget[] } {
  const labels = p.placement.labels
    .map((l) => labelIds.get(l.toLowerCase()))
    .filter((id) => id !== undefined);
  const flags = {
    seen: p.placement.seen ?? p.flags.seen,
    flagged: p.placement.flagged ?? p.flags.flagged,
    answered: p.flags.answered,
    draft: p.flags.draft || ('system' in p.placement.folder && p.placement.folder.system === 'draft'),
  };
  const copies = p.plan
    ? p.plan.copies.map((c) => ({
        folder: c.folder,
        flags: {
          seen: flags.seen || c.flags.seen,
          flagged: flags.flagged || c.flags.flagged,
          answered: flags.answered,
          draft: flags.draft,
        },
        labels: [...new Set([...labels, ...c.labels])],
      }))
    : [{ folder: p.folderId, flags, labels }];
  return {
    source: { parsed: p.parsed, blobs: p.blobs, receivedAt: p.receivedAt(p.parsed.sentAt) },
    targets: [{ accountId: ctx.accountId, inbox: p.folderId, copies }],
  };
}

/** The folder a placement names, made when missing; a path we cannot make falls back to the Inbox. */
async function folderOf(
  ctx: BatchContext,
  placement: Placement,
): Promise<{ id: number; created: boolean; refused: boolean }> {
  const key = 'system' in placement.folder ? `system:${placement.folder.system}` : placement.folder.path;
  const cached = ctx.folders.get(key);
  if (cached !== undefined) return { id: cached, created: false, refused: false };
  if ('system' in placement.folder) {
    const { id } = await systemFolder(ctx.db, ctx.accountId, placement.folder.system);
    ctx.folders.set(key, id);
    return { id, created: false, refused: false };
  }
  try {
    const { id, created } = await ensureFolderPath(ctx.db, ctx.accountId, placement.folder.path);
    ctx.folders.set(key, id);
    return { id, created, refused: false };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const inbox = await folderOf(ctx, { folder: { system: 'inbox' }, labels: [] });
    return { ...inbox, refused: true };
  }
}
