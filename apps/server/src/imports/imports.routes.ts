import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownerOnly } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { apiRoute } from '../http/index.js';
import { findUploads } from '../sending/index.js';
import { importFormat } from './import-source.js';
import { getMailImport, mailImports, startImport } from './imports.service.js';
import {
  cancelImportUpload,
  createImportUpload,
  getImportUpload,
  putImportUploadPart,
  startUploadImport,
} from './import-uploads.service.js';

/**
 * Mail imports (issue 33): the mailbox owner's alone. An import starts from a file uploaded before: a chunked
 * upload (any size up to IMPORT_UPLOAD_MAX_BYTES, in parts; Settings › Import uses it) or a compose upload (≤ 50 MB).
 */
export const mailImportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.route({
    ...apiRoute(app, 'startMailImport', {
      tags: ['imports'],
      summary: 'Import an uploaded mbox, .eml, or .zip or .tar.gz of .eml files into the mailbox (a job)',
    }),
    handler: async (request) => {
      const principal = request.requireAuth();
      const accountId = ownerOnly(principal);
      const { import_upload_id: importUploadId, filters } = request.body;
      if (importUploadId !== undefined)
        return {
          import: await startUploadImport(db, app.deps.blobs, accountId, importUploadId, { filters }),
        };
      const [upload] = await findUploads(db, principal, [request.body.upload_id!]);
      if (!upload) throw new DomainError('entity_not_found');
      await importFormat(app.deps.blobs, { blobHash: upload.blob_hash });
      const started = await startImport(db, accountId, {
        file: { blobHash: upload.blob_hash },
        name: upload.name,
        options: { filters: request.body.filters },
      });
      return { import: started };
    },
  });

  app.route({
    ...apiRoute(app, 'mailImports', {
      tags: ['imports'],
      summary: "The account's mail imports, newest first",
    }),
    handler: async (request) => ({
      imports: await mailImports(db, ownerOnly(request.requireAuth())),
    }),
  });

  app.route({
    ...apiRoute(app, 'mailImport', { tags: ['imports'], summary: "A mail import's progress and report" }),
    handler: async (request) => ({
      import: await getMailImport(db, ownerOnly(request.requireAuth()), request.params.id),
    }),
  });

  app.route({
    ...apiRoute(app, 'createImportUpload', {
      tags: ['imports'],
      summary: 'Begin the chunked upload of an import file (its name and size)',
      description:
        'Then PUT each part in order (imports/uploads/{id}/parts/{n}, part_bytes each but the last); GET ' +
        'imports/uploads/{id} says how far it got, to go on after a dropped connection; once received = size, ' +
        'POST imports with import_upload_id. At most IMPORT_UPLOAD_MAX_BYTES and the mailbox quota ' +
        '(413 import_file_too_large); IMPORT_UPLOADS_MAX unfinished at once (429 import_uploads_limit_reached).',
    }),
    handler: async (request) => ({
      upload: await createImportUpload(db, ownerOnly(request.requireAuth()), request.body),
    }),
  });

  app.route({
    ...apiRoute(app, 'importUpload', { tags: ['imports'], summary: 'How far a chunked upload got' }),
    handler: async (request) => ({
      upload: await getImportUpload(db, ownerOnly(request.requireAuth()), request.params.id),
    }),
  });

  app.route({
    ...apiRoute(app, 'deleteImportUpload', {
      tags: ['imports'],
      summary: 'Give up a chunked upload that no import has taken',
    }),
    handler: async (request) => {
      await cancelImportUpload(db, ownerOnly(request.requireAuth()), request.params.id);
      return { ok: true as const };
    },
  });

  // A part is the request's body, streamed into the blob store as it comes (its own parser, for this route alone).
  await app.register(async (plugin) => {
    const scoped = plugin.withTypeProvider<ZodTypeProvider>();
    scoped.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scoped.route({
      ...apiRoute(scoped, 'putImportUploadPart', {
        tags: ['imports'],
        summary: 'Send one part of a chunked upload (the bytes as the body, application/octet-stream)',
        description:
          'Part n holds bytes n × part_bytes onwards: part_bytes of them, or what is left for the last. The next ' +
          'part or one already sent (sent again, it replaces it); otherwise, or when the body is cut off or of ' +
          'another length, 400 invalid_request_params and nothing is stored.',
        consumes: ['application/octet-stream'],
      }),
      handler: async (request) => {
        const length = Number(request.headers['content-length']);
        const body = request.body as Readable | undefined;
        if (!body || typeof body.pipe !== 'function') throw new DomainError('invalid_request_params');
        return {
          upload: await putImportUploadPart(db, app.deps.blobs, ownerOnly(request.requireAuth()), {
            id: request.params.id,
            part: request.params.part,
            body,
            ...(Number.isFinite(length) ? { declaredLength: length } : {}),
          }),
        };
      },
    });
  });
};
