import type { Readable } from 'node:stream';
import {
  ATTACHMENTS_TOTAL_LIMIT_BYTES,
  ATTACHMENTS_TOTAL_LIMIT_MB,
  type CopyAttachmentsRequest,
  type UploadedAttachment,
  withoutInvisibleFormatting,
} from '@mailroom/protocol';
import { requireAccount, type Principal } from '../accounts/index.js';
import { BlobTooLargeError, type BlobStore } from '../core/blobs/index.js';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { scopeOf } from '../addresses/index.js';
import { findComposeSource, openAttachment } from '../mailbox/index.js';
import type { OutgoingAttachment } from './compose-mime.js';
import {
  findUploads,
  insertUploads,
  pendingUploadBytes,
  principalHasUpload,
  type UploadRow,
} from './sending.repository.js';

/** Uploads nobody sent or saved in a draft for this long are removed by the sweep. */
export const UPLOAD_TTL_MS = 24 * 3600_000;

export function tooLarge(): DomainError {
  return new DomainError('max_limit_reached', `Max limit reached: ${ATTACHMENTS_TOTAL_LIMIT_MB}Mb`);
}

/** The file's name as shown and sent: no folders, no control characters, bounded. */
// eslint-disable-next-line no-control-regex
const nameControls = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;

export function uploadName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = withoutInvisibleFormatting(base.replace(nameControls, '')).trim().slice(0, 255);
  return cleaned || 'attachment';
}

/** A MIME type token only (`type/subtype`), or application/octet-stream. */
export function uploadContentType(declared: string | undefined): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) && type.length <= 255
    ? type
    : 'application/octet-stream';
}

const toUploaded = (row: UploadRow): UploadedAttachment => ({ id: row.id, name: row.name, size: row.size });

/**
 * One file, streamed to the blob store (hashed and fsynced on the way, never held in memory):
 * over the 50 MB total it is max_limit_reached, and it must fit in the quota together with the
 * mailbox and the other uploads not yet sent.
 */
export async function uploadAttachment(
  db: Db,
  blobs: BlobStore,
  principal: Principal,
  file: { stream: Readable; name: string; contentType: string | undefined; declaredSize?: number },
): Promise<UploadedAttachment> {
  const room = async () => {
    const quota = await requireAccount(db, principal.accountId);
    return (
      quota.quota_limit_bytes - quota.quota_used_bytes - (await pendingUploadBytes(db, principal.accountId))
    );
  };
  if (file.declaredSize !== undefined && file.declaredSize > (await room())) {
    file.stream.resume();
    throw new DomainError('quota_exceeded');
  }
  let blob: { hash: string; size: number };
  try {
    // Bytes are deduplicated per uploader, not across accounts: a blob someone else stored is written again (the
    // same bytes under the same hash, so it is still stored once), and the upload takes as long as one of new bytes —
    // its time tells nobody what another member keeps. Only the uploader's own earlier upload skips the write.
    blob = await blobs.putStream(file.stream, {
      maxBytes: ATTACHMENTS_TOTAL_LIMIT_BYTES,
      reuse: (hash) => principalHasUpload(db, principal, hash),
    });
  } catch (err) {
    if (err instanceof BlobTooLargeError || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw tooLarge();
    }
    throw err;
  }
  if (blob.size > (await room())) throw new DomainError('quota_exceeded');
  const [row] = await insertUploads(db, principal, [
    {
      blob_hash: blob.hash,
      name: uploadName(file.name),
      content_type: uploadContentType(file.contentType),
      size: blob.size,
    },
  ]);
  return toUploaded(row!);
}

/** A stored message as compose reads it, when the session may see it (its scope); undefined otherwise. */
export async function composeSourceFor(db: Db, principal: Principal, folderId: number, uid: number) {
  return findComposeSource(db, principal.accountId, await scopeOf(db, principal), folderId, uid);
}

/**
 * POST attachments/copy: attachments of a stored message (forward, reopened draft) become
 * compose uploads. Each is decoded from the stored message into a blob of its own (hashed, so
 * the same file forwarded twice is stored once); nothing is uploaded by the browser.
 */
export async function copyAttachments(
  db: Db,
  blobs: BlobStore,
  principal: Principal,
  request: CopyAttachmentsRequest,
): Promise<UploadedAttachment[]> {
  const source = await composeSourceFor(db, principal, request.folder_id, request.uid);
  if (!source) throw new DomainError('message_not_found');
  const wanted = request.ids ? new Set(request.ids) : null;
  const picked = source.attachments.filter((a) => !wanted || wanted.has(a.id));
  if (wanted && picked.length !== wanted.size) throw new DomainError('entity_not_found');
  const uploads = [];
  // One at a time: each is streamed, but 500 parts at once would open 500 files.
  for (const a of picked) {
    const blob = a.part
      ? await blobs.putStream(await openAttachment(blobs, source.blobHash, a), {
          // As an upload: only the principal's own blob of these bytes is re-used without a write.
          reuse: (hash) => principalHasUpload(db, principal, hash),
        })
      : { hash: a.blob_hash, size: a.size };
    uploads.push({
      blob_hash: blob.hash,
      name: uploadName(a.name),
      content_type: uploadContentType(a.content_type),
      size: blob.size,
    });
  }
  const rows = await insertUploads(db, principal, uploads);
  return rows.map(toUploaded);
}

/**
 * The uploads a message names, the session principal's only (another account's id, or another
 * principal's of the same account, is entity_not_found), within the 50 MB total.
 */
export async function attachmentsForMessage(
  db: Db,
  principal: Principal,
  ids: number[],
): Promise<{ ids: number[]; attachments: OutgoingAttachment[] }> {
  const unique = [...new Set(ids)];
  const rows = await findUploads(db, principal, unique);
  if (rows.length !== unique.length) throw new DomainError('entity_not_found');
  const total = rows.reduce((sum, r) => sum + r.size, 0);
  if (total > ATTACHMENTS_TOTAL_LIMIT_BYTES) throw tooLarge();
  return {
    ids: unique,
    attachments: rows.map((r) => ({
      name: r.name,
      contentType: r.content_type,
      blobHash: r.blob_hash,
      size: r.size,
    })),
  };
}
