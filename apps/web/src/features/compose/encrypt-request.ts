import { ENCRYPTED_PAYLOAD_LIMIT_BYTES, type ComposeRequest } from '@mailroom/protocol';
import { encryptMessage, type EncryptedAttachment } from '../../lib/crypto';

/** Bytes the payload header and the GCM tag add at most beyond body and attachments. */
const OVERHEAD_BYTES = 64 * 1024;

export class EncryptedTooLargeError extends Error {
  constructor() {
    super('encrypted_too_large');
    this.name = 'EncryptedTooLargeError';
  }
}

/** Whether a body and attachments of these sizes fit the 20 MB limit of an encrypted message. */
export function fitsEncryptedLimit(contentLength: number, attachmentSizes: readonly number[]): boolean {
  const total = contentLength * 3 + attachmentSizes.reduce((sum, size) => sum + size, 0);
  return total + OVERHEAD_BYTES <= ENCRYPTED_PAYLOAD_LIMIT_BYTES;
}

/**
 * Turns a compose request into its encrypted form: subject, body and attachment bytes go inside
 * the encryption, the clear fields are emptied, and the server gets only ciphertext, salts and the
 * authentication value. Attachments are the files the browser holds, never uploaded ones.
 */
export async function encryptComposeRequest(
  request: ComposeRequest,
  password: string,
  files: readonly File[],
): Promise<ComposeRequest> {
  const content = request.content ?? '';
  if (
    !fitsEncryptedLimit(
      content.length,
      files.map((file) => file.size),
    )
  )
    throw new EncryptedTooLargeError();
  const attachments: EncryptedAttachment[] = await Promise.all(
    files.map(async (file) => ({
      name: file.name,
      type: file.type || 'application/octet-stream',
      bytes: new Uint8Array(await file.arrayBuffer()),
    })),
  );
  const { size: _size, ...encryption } = await encryptMessage(password, {
    subject: request.subject ?? '',
    content,
    content_type: request.content_type ?? 'text/html',
    attachments,
  });
  return { ...request, subject: '', content: '', attachments: [], encrypt: true, encryption };
}
