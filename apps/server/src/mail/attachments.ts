import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';

import { encodeExtended } from 'content-disposition';

import type { Db } from '../core/db/index.js';
import type { StoredAttachment } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { attachmentsOf } from './messages-read.repository.js';
import { attachmentDisplayName } from './messages-read.service.js';
import { scopeOf } from '../addresses/index.js';
import { openAttachment } from '../mailbox/index.js';
import { servedContentType } from './content-types.js';
import type { Principal } from '../accounts/index.js';

/**
 * A file name safe to offer for download: no folders (`../x`, `C:\x`), no control characters,
 * quotes or characters Windows refuses, not hidden, not too long; a fallback when nothing is left.
 */
export function safeFileName(name: string, fallback = 'attachment'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f"<>:|?*\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 200);
  return cleaned || fallback;
}

/** `attachment; filename="ascii fallback"; filename*=UTF-8''…` (RFC 6266 / 8187). */
export function contentDisposition(name: string): string {
  const safe = safeFileName(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/[\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=${encodeExtended(safe)}`;
}

/** One attachment (or inline part) of one of the caller's messages, and the message's raw blob. */
export async function findAttachment(
  db: Db,
  principal: Principal,
  folderId: number,
  uid: number,
  attachmentId: number,
): Promise<{ attachment: StoredAttachment; messageBlob: string }> {
  const scope = await scopeOf(db, principal);
  const row = await attachmentsOf(db, principal.accountId, scope, folderId, uid);
  const attachment = row?.attachments.find((a) => a.id === attachmentId);
  if (!row || !attachment) throw new DomainError('entity_not_found');
  return { attachment, messageBlob: row.blob_hash };
}

export const attachmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, blobs } = app.deps;
  app.route({
    ...apiRoute(app, 'attachment', {
      tags: ['messages'],
      summary: 'Download an attachment or inline part of a message',
      description:
        'Always served as a download (Content-Disposition: attachment) with nosniff and a sandbox CSP; ' +
        'the declared type only when harmless, else application/octet-stream.',
    }),
    handler: async (request, reply) => {
      const { message_uid: uid, folder_id: folderId } = request.query;
      const { attachment, messageBlob } = await findAttachment(
        db,
        request.requireAuth(),
        folderId,
        uid,
        request.params.id,
      );
      const body = await openAttachment(blobs, messageBlob, attachment);
      return (
        reply
          .header('content-type', servedContentType(attachment.content_type))
          .header('content-disposition', contentDisposition(attachmentDisplayName(attachment)))
          .header('content-length', attachment.size)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "sandbox; default-src 'none'")
          // Parts never change, but access can: the browser may keep them, shared caches may not.
          .header('cache-control', 'private, max-age=3600')
          .send(body)
      );
    },
  });
};
