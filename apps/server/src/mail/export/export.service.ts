import type { Readable } from 'node:stream';
import { Readable as ReadableStream } from 'node:stream';
import type { ExportFormat, MessageQuery } from '@mailroom/protocol';
import { requireFullSession, type Principal } from '../../accounts/index.js';
import { narrowScope, scopeOf } from '../../addresses/index.js';
import { SMALL_BLOB_MAX_BYTES, type BlobStore } from '../../core/blobs/index.js';
import type { Db } from '../../core/db/index.js';
import { DomainError } from '../../core/errors.js';
import { listFolders, requireFolder, requireLabel } from '../../mailbox/index.js';
import { resolveQuery } from '../search.service.js';
import { filterCondition, type MessageFilter } from '../search.query.js';
import { exportPage, messageSourceRow, type ExportCursor, type ExportRow } from './export.repository.js';
import { MboxrdQuoter, mboxFromLine } from './mbox.js';
import { folderPaths, zipOfMessages } from './zip.js';

/** Rows read per keyset page: their metadata only, the bytes are streamed one message at a time. */
const PAGE = 200;
/** A batch of messages whose small blobs are fetched together: at most this many, and about this many bytes. */
const BATCH = 100;
const BATCH_BYTES = 4 * 1024 * 1024;
/** Exports of one mailbox running at once in this process: each holds a database connection's time and a socket. */
export const EXPORTS_PER_ACCOUNT = 2;

/** What an export answers with: its file name and type, and its bytes as they are produced. */
export interface ExportDownload {
  fileName: string;
  contentType: string;
  body: Readable;
}

/** What is exported: a folder, a label, a search's matches, the whole mailbox. */
export type ExportTarget =
  | { kind: 'folder'; folderId: number; aId: 'all' | number }
  | { kind: 'label'; labelId: number }
  | { kind: 'search'; query: MessageQuery }
  | { kind: 'mailbox' };

const running = new Map<number, number>();

/** Holds one of the account's export places until the body closes; export_limit_reached when none is free. */
function takeExportPlace(accountId: number): () => void {
  const now = running.get(accountId) ?? 0;
  if (now >= EXPORTS_PER_ACCOUNT) throw new DomainError('export_limit_reached');
  running.set(accountId, now + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (running.get(accountId) ?? 1) - 1;
    if (left > 0) running.set(accountId, left);
    else running.delete(accountId);
  };
}

/** The matching messages, oldest first, page by page. */
async function* matchingRows(db: Db, filter: MessageFilter): AsyncGenerator<ExportRow> {
  const condition = filterCondition(filter, 'page');
  for (let after: ExportCursor | null = null; ;) {
    const rows = await exportPage(db, condition, after, PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { atKey: last.at_key, id: last.id };
  }
}

/** A message's bytes: in hand (a small blob of a batch) or a stream from the store. */
export type MessageBytes = Buffer | Readable;

/**
 * Each row with its bytes, in order. Rows are taken in batches of at most BATCH messages and BATCH_BYTES: the store
 * hands the batch's small blobs over in one query (getMany: 0.04 ms a message instead of 0.4 on PGlite), the next
 * batch is asked for while this one is written, and a large message is streamed when its turn comes. So at most two
 * batches are held. Closing the iterator early (the client went away) drops them.
 */
export async function* withBodies(
  blobs: BlobStore,
  rows: AsyncIterable<ExportRow>,
): AsyncGenerator<{ row: ExportRow; body: MessageBytes }> {
  const source = rows[Symbol.asyncIterator]();
  let exhausted = false;
  const nextBatch = async (): Promise<{ rows: ExportRow[]; held: Map<string, Buffer> } | null> => {
    const batch: ExportRow[] = [];
    let bytes = 0;
    while (!exhausted && batch.length < BATCH && bytes < BATCH_BYTES) {
      const next = await source.next();
      if (next.done) exhausted = true;
      else {
        batch.push(next.value);
        bytes += next.value.size;
      }
    }
    if (!batch.length) return null;
    const small = batch.filter((row) => row.size <= SMALL_BLOB_MAX_BYTES).map((row) => row.blob_hash);
    return { rows: batch, held: blobs.getMany ? await blobs.getMany(small) : new Map() };
  };
  try {
    let coming = nextBatch();
    for (let batch = await coming; batch; batch = await coming) {
      coming = nextBatch();
      coming.catch(() => undefined);
      for (const row of batch.rows)
        yield { row, body: batch.held.get(row.blob_hash) ?? (await blobs.stream(row.blob_hash)) };
    }
  } finally {
    await source.return?.(undefined);
  }
}

/** One mboxrd file of the messages, produced as the client reads it. */
function mboxOf(messages: AsyncIterable<{ row: ExportRow; body: MessageBytes }>): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for await (const { row, body } of messages) {
      const quoter = new MboxrdQuoter();
      const fromLine = mboxFromLine(row.from_email, row.received_at);
      if (Buffer.isBuffer(body)) {
        // One write for a small message: its From line, its quoted bytes and the empty line after it.
        yield Buffer.concat([fromLine, quoter.push(body), quoter.end()]);
        continue;
      }
      yield fromLine;
      try {
        for await (const chunk of body) yield quoter.push(chunk as Buffer);
      } finally {
        body.destroy();
      }
      yield quoter.end();
    }
  }
  return ReadableStream.from(chunks(), { objectMode: false });
}

const today = () => new Date().toISOString().slice(0, 10);

/** What a target means: the messages' filter and the file's name (without its extension). */
async function resolveTarget(
  db: Db,
  principal: Principal,
  target: ExportTarget,
): Promise<{ filter: MessageFilter; name: string }> {
  const { accountId } = principal;
  switch (target.kind) {
    case 'folder': {
      const folder = await requireFolder(db, accountId, target.folderId);
      const scope = await narrowScope(db, accountId, await scopeOf(db, principal), target.aId, 'nothing');
      const name = folder.name === 'INBOX' ? 'Inbox' : folder.name.split('.').pop()!;
      return { filter: { accountId, folderId: folder.id, scope }, name };
    }
    case 'label': {
      // Labels are the owner's (SPEC §6: an alias-only session does not see them), as their list is.
      requireFullSession(principal);
      const label = await requireLabel(db, accountId, target.labelId);
      return { filter: { accountId, label, scope: { kind: 'all' } }, name: label.name };
    }
    case 'search':
      return {
        filter: await resolveQuery(db, accountId, target.query, await scopeOf(db, principal)),
        name: 'search',
      };
    case 'mailbox':
      return { filter: { accountId, scope: await scopeOf(db, principal) }, name: 'mail' };
  }
}

/**
 * An export as one streamed download: the messages are read a keyset page at a time and their bytes streamed from
 * the blob store, each written as the client takes it (back-pressure all the way), so the server holds a page of
 * rows and a few messages, never the archive. At most EXPORTS_PER_ACCOUNT of one mailbox run at once.
 */
export async function startExport(
  db: Db,
  blobs: BlobStore,
  principal: Principal,
  target: ExportTarget,
  format: ExportFormat,
): Promise<ExportDownload> {
  const { filter, name } = await resolveTarget(db, principal, target);
  const release = takeExportPlace(principal.accountId);
  try {
    const messages = withBodies(blobs, matchingRows(db, filter));
    let body: Readable;
    if (format === 'mbox') body = mboxOf(messages);
    else {
      const paths = folderPaths(await listFolders(db, principal.accountId));
      body = zipOfMessages(messages, (row) => paths.get(row.folder_id) ?? String(row.folder_id));
    }
    body.once('close', release);
    body.once('error', release);
    return {
      fileName: `${name} ${today()}.${format}`,
      contentType: format === 'mbox' ? 'application/mbox' : 'application/zip',
      body,
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** A message's bytes exactly as stored, as `<subject>.eml`. */
export async function messageSource(
  db: Db,
  blobs: BlobStore,
  principal: Principal,
  folderId: number,
  uid: number,
): Promise<{ fileName: string; size: number; body: Readable }> {
  const scope = await scopeOf(db, principal);
  const row = await messageSourceRow(db, principal.accountId, scope, folderId, uid);
  if (!row) throw new DomainError('message_not_found');
  const subject = row.subject.replace(/[\\/]/g, '_').replace(/\s+/g, ' ').trim().slice(0, 100);
  return { fileName: `${subject || 'message'}.eml`, size: row.size, body: await blobs.stream(row.blob_hash) };
}
