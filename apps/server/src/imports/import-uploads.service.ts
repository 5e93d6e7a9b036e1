import type { Readable } from 'node:stream';
import {
  IMPORT_UPLOAD_MAX_BYTES,
  IMPORT_UPLOAD_PART_BYTES,
  IMPORT_UPLOADS_MAX,
  type ImportUpload,
  type ImportUploadCreate,
  type MailImport,
} from '@mailroom/protocol';
import { requireAccount } from '../accounts/index.js';
import { BlobTooLargeError, type BlobStore } from '../core/blobs/index.js';
import { isUniqueViolation, transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import {
  countImportUploadParts,
  countOpenImportUploads,
  deleteImportUpload,
  deleteStaleImportUploads,
  findImportUpload,
  importUploadBlobs,
  importUploadTaken,
  insertImportUpload,
  lockImportUploads,
  saveImportUploadPart,
  toImportUpload,
} from './import-uploads.repository.js';
import { importFormat } from './import-source.js';
import { startImport } from './imports.service.js';

/** An upload nobody added a part to for this long, and no import took, is removed. */
export const IMPORT_UPLOAD_TTL_MS = 24 * 3600_000;

/**
 * Begins the chunked upload of an import file (our own protocol, tus-like; README "Importing mail"): at most
 * IMPORT_UPLOAD_MAX_BYTES and the mailbox's quota (the file's messages must fit in it), and IMPORT_UPLOADS_MAX
 * unfinished at once, so a member cannot fill the server's disk with parts.
 */
export async function createImportUpload(
  db: Db,
  accountId: number,
  input: ImportUploadCreate,
): Promise<ImportUpload> {
  const account = await requireAccount(db, accountId);
  if (input.size > Math.min(IMPORT_UPLOAD_MAX_BYTES, Number(account.quota_limit_bytes)))
    throw new DomainError('import_file_too_large');
  const row = await transact(db, async (trx) => {
    await lockImportUploads(trx, accountId);
    if ((await countOpenImportUploads(trx, accountId)) >= IMPORT_UPLOADS_MAX)
      throw new DomainError('import_uploads_limit_reached');
    return insertImportUpload(trx, { account_id: accountId, file_name: input.file_name, size: input.size });
  });
  return toImportUpload(row);
}

export async function getImportUpload(db: Db, accountId: number, id: number): Promise<ImportUpload> {
  const row = await findImportUpload(db, accountId, id);
  if (!row) throw new DomainError('entity_not_found');
  return toImportUpload(row);
}

/** The bytes part `part` of an upload of `size` bytes must hold: every part is full but the last. */
export function partLength(size: number, part: number): number {
  return Math.min(IMPORT_UPLOAD_PART_BYTES, size - part * IMPORT_UPLOAD_PART_BYTES);
}

/**
 * Stores part `part` of the upload from `body`, streamed into the blob store (never held whole in memory). Parts
 * come in order: the next one, or one already stored again (a retry whose answer was lost replaces it). A part of
 * the wrong length, one ahead of the next, or a body cut off is refused with invalid_request_params and stores
 * nothing; the client asks how far the upload got and sends from there.
 */
export async function putImportUploadPart(
  db: Db,
  blobs: BlobStore,
  accountId: number,
  input: { id: number; part: number; body: Readable; declaredLength?: number },
): Promise<ImportUpload> {
  const upload = await findImportUpload(db, accountId, input.id);
  if (!upload || (await importUploadTaken(db, input.id))) throw new DomainError('entity_not_found');
  const expected = partLength(Number(upload.size), input.part);
  const next = await countImportUploadParts(db, input.id);
  const declaredWrong = input.declaredLength !== undefined && input.declaredLength !== expected;
  if (expected <= 0 || input.part > next || declaredWrong) throw new DomainError('invalid_request_params');
  let stored: { hash: string; size: number };
  try {
    stored = await blobs.putStream(input.body, { maxBytes: expected });
  } catch (err) {
    if (err instanceof BlobTooLargeError || input.body.errored || input.body.destroyed)
      throw new DomainError('invalid_request_params');
    throw err;
  }
  // A short body: the connection dropped, or the client sent less. Its blob is left to the collector.
  if (stored.size !== expected) throw new DomainError('invalid_request_params');
  await transact(db, async (trx) => {
    await lockImportUploads(trx, accountId);
    const now = await findImportUpload(trx, accountId, input.id);
    if (!now || (await importUploadTaken(trx, input.id))) throw new DomainError('entity_not_found');
    if (input.part > (await countImportUploadParts(trx, input.id)))
      throw new DomainError('invalid_request_params');
    await saveImportUploadPart(trx, {
      upload_id: input.id,
      part: input.part,
      size: stored.size,
      blob_hash: stored.hash,
    });
  });
  return getImportUpload(db, accountId, input.id);
}

/** Gives up an upload no import has taken (its parts' blobs are then the collector's). */
export async function cancelImportUpload(db: Db, accountId: number, id: number): Promise<void> {
  if (!(await deleteImportUpload(db, accountId, id))) throw new DomainError('entity_not_found');
}

/** The recurring sweep's work: uploads left unfinished or never imported for IMPORT_UPLOAD_TTL_MS. */
export function sweepImportUploads(db: Db, now = Date.now()): Promise<number> {
  return deleteStaleImportUploads(db, new Date(now - IMPORT_UPLOAD_TTL_MS));
}

/**
 * Starts the import of a complete upload: its parts are the file (import-source reads them one after the other).
 * An upload is imported once: a second start, even at the same moment, finds it taken.
 */
export async function startUploadImport(
  db: Db,
  blobs: BlobStore,
  accountId: number,
  uploadId: number,
  options: { filters?: boolean },
): Promise<MailImport> {
  const upload = await findImportUpload(db, accountId, uploadId);
  if (!upload || (await importUploadTaken(db, uploadId))) throw new DomainError('entity_not_found');
  if (Number(upload.received) < Number(upload.size)) throw new DomainError('import_upload_incomplete');
  const file = { parts: await importUploadBlobs(db, uploadId) };
  await importFormat(blobs, file);
  try {
    return await startImport(db, accountId, { file, uploadId, name: upload.file_name, options });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('entity_not_found');
    throw err;
  }
}
