import type { Readable } from 'node:stream';
import type { BlobStore } from '../core/blobs/index.js';
import type { StoredAttachment } from '../core/db/index.js';
import { decodePart } from './parse/part-ranges.js';

/**
 * An attachment's decoded bytes as a stream: its range of the message's raw blob (`messageBlob`),
 * decoded from its transfer encoding as it is read, or its own blob for a message stored before
 * attachments were kept that way. Rejects before any byte when a blob is missing.
 */
export async function openAttachment(
  blobs: BlobStore,
  messageBlob: string,
  attachment: StoredAttachment,
): Promise<Readable> {
  if (!attachment.part) return blobs.stream(attachment.blob_hash);
  return decodePart(await blobs.stream(messageBlob, attachment.part), attachment.part.encoding);
}
