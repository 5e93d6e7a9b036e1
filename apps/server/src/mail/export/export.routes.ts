import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { apiRoute } from '../../http/index.js';
import { contentDisposition } from '../attachments.js';
import type { ExportFormat } from '@mailroom/protocol';
import type { Principal } from '../../accounts/index.js';
import { messageSource, startExport, type ExportDownload, type ExportTarget } from './export.service.js';

/** An export's headers: a download that no cache keeps, not compressed again on the way (a zip is already). */
function sendDownload(reply: FastifyReply, download: ExportDownload) {
  return reply
    .header('content-type', download.contentType)
    .header('content-disposition', contentDisposition(download.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(download.body);
}

const formats =
  'format=mbox (default): one mboxrd file, the messages oldest first, each after a `From <sender> <date>` line, ' +
  'lines beginning with `>*From ` quoted with one more `>`; format=zip: one `.eml` file per message (its bytes as ' +
  'stored) under its folder path (Inbox, Sent, Work/2026). Streamed as it is written; at most two exports of a ' +
  'mailbox at once (429 export_limit_reached). A session held to one address exports only mail to it.';

export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, blobs } = app.deps;
  const download = async (
    reply: FastifyReply,
    principal: Principal,
    target: ExportTarget,
    format: ExportFormat,
  ) => sendDownload(reply, await startExport(db, blobs, principal, target, format));

  app.route({
    ...apiRoute(app, 'exportFolder', { tags: ['export'], summary: 'Export a folder', description: formats }),
    handler: async (request, reply) =>
      download(
        reply,
        request.requireAuth(),
        { kind: 'folder', folderId: request.params.folder_id, aId: request.query.a_id },
        request.query.format,
      ),
  });

  app.route({
    ...apiRoute(app, 'exportLabel', {
      tags: ['export'],
      summary: "Export a label's messages (those carrying it and those its saved search finds)",
      description: formats,
    }),
    handler: async (request, reply) =>
      download(
        reply,
        request.requireAuth(),
        { kind: 'label', labelId: request.params.label_id },
        request.query.format,
      ),
  });

  app.route({
    ...apiRoute(app, 'exportSearch', {
      tags: ['export'],
      summary: "Export a search's every match",
      description: `q: the search request as POST messages/search takes it, as JSON (page and limit ignored). ${formats}`,
    }),
    handler: async (request, reply) =>
      download(
        reply,
        request.requireAuth(),
        { kind: 'search', query: request.query.q },
        request.query.format,
      ),
  });

  app.route({
    ...apiRoute(app, 'exportMailbox', {
      tags: ['export'],
      summary: 'Export the whole mailbox',
      description: formats,
    }),
    handler: async (request, reply) =>
      download(reply, request.requireAuth(), { kind: 'mailbox' }, request.query.format),
  });

  app.route({
    ...apiRoute(app, 'messageSource', {
      tags: ['messages'],
      summary: 'Download a message as it is stored (.eml)',
      description: 'The bytes exactly as received or saved, as message/rfc822. 404 message_not_found.',
    }),
    handler: async (request, reply) => {
      const source = await messageSource(
        db,
        blobs,
        request.requireAuth(),
        request.params.folder_id,
        request.params.uid,
      );
      return reply
        .header('content-type', 'message/rfc822')
        .header('content-disposition', contentDisposition(source.fileName))
        .header('content-length', source.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(source.body);
    },
  });
};
