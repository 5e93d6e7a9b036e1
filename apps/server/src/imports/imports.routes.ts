import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownerOnly } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { apiRoute } from '../http/index.js';
import { findUploads } from '../sending/index.js';
import { importFormat } from './import-source.js';
import { getMailImport, mailImports, startImport } from './imports.service.js';

/**
 * Mail imports (issue 33): the mailbox owner's alone. An import starts from a file uploaded before (an upload's id:
 * the compose upload for now, the chunked upload of large files when it comes, which calls startImport itself).
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
      const [upload] = await findUploads(db, principal, [request.body.upload_id]);
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
};
