import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';
import { ATTACHMENTS_TOTAL_LIMIT_BYTES } from '@mailroom/protocol';
import { DomainError } from '../core/errors.js';
import {
  discardComposedDraft,
  saveComposedDraft,
  sendComposed,
  type SendingDeps,
} from './sending.service.js';
import { copyAttachments, tooLarge, uploadAttachment } from './uploads.js';
import { withFilterActions } from './filter-actions.js';
import { cancelScheduledSend, listScheduledSends, sendScheduledNow } from './scheduled.js';

/**
 * Content may be up to the 50 MB of the contract, and JSON escaping (or two-byte UTF-8) can
 * double it on the wire.
 */
const COMPOSE_BODY_LIMIT = 2 * ATTACHMENTS_TOTAL_LIMIT_BYTES + 1024 * 1024;

export const sendingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, blobs } = app.deps;
  const deps: SendingDeps = withFilterActions({ ...app.deps, log: app.log.child({ area: 'sending' }) });

  // One file per request; one byte over the limit is enough to know it is too big.
  await app.register(multipart, {
    limits: {
      files: 1,
      fileSize: ATTACHMENTS_TOTAL_LIMIT_BYTES + 1,
      fields: 10,
      parts: 11,
      headerPairs: 100,
    },
  });

  app.route({
    ...apiRoute(app, 'sendMessage', {
      tags: ['sending'],
      summary: 'Send a message',
      description:
        'Stores a copy in Sent (with Bcc), delivers to local recipients at once and queues remote ' +
        'ones for the relay; `uid` names a draft the message finishes (it is deleted).',
    }),
    bodyLimit: COMPOSE_BODY_LIMIT,
    // Compose names the header fields a control character is in (invalid_header_value) and drops NUL from bodies.
    config: { checksNul: true },
    handler: async (request) => sendComposed(deps, request.requireAuth(), request.body),
  });

  app.route({
    ...apiRoute(app, 'saveDraft', {
      tags: ['sending'],
      summary: 'Save a draft',
      description: 'Stores the message in Drafts with \\Draft; `uid` names the draft it replaces.',
    }),
    bodyLimit: COMPOSE_BODY_LIMIT,
    config: { checksNul: true },
    handler: async (request) => saveComposedDraft(deps, request.requireAuth(), request.body),
  });

  app.route({
    ...apiRoute(app, 'discardDraft', {
      tags: ['sending'],
      summary: 'Discard a draft for good',
      description:
        'Removes a draft of Drafts without moving it to Trash: a compose window closed as it opened drops the ' +
        'draft it autosaved. A uid that is no draft of the caller removes nothing.',
    }),
    handler: async (request) => discardComposedDraft(deps, request.requireAuth(), request.params.uid),
  });

  app.route({
    ...apiRoute(app, 'scheduledSends', {
      tags: ['sending'],
      summary: 'Messages waiting to be sent',
      description:
        'What waits in Scheduled, soonest first: held for the undo window (purpose undo) or sent later (later).',
    }),
    handler: async (request) => listScheduledSends(deps, request.requireAuth()),
  });

  app.route({
    ...apiRoute(app, 'cancelScheduledSend', {
      tags: ['sending'],
      summary: 'Take back a message waiting to be sent (Undo, Cancel, Edit)',
      description:
        'It is not sent: its copy goes back to Drafts (`draft`; null for a password-encrypted message, whose copy is ' +
        'removed). Once it has gone: 409 send_already_sent.',
    }),
    handler: async (request) => cancelScheduledSend(deps, request.requireAuth(), request.params.id),
  });

  app.route({
    ...apiRoute(app, 'sendScheduledNow', {
      tags: ['sending'],
      summary: 'Send a waiting message now',
      description: 'Once it has gone: 409 send_already_sent.',
    }),
    handler: async (request) => sendScheduledNow(deps, request.requireAuth(), request.params.id),
  });

  app.route({
    ...apiRoute(app, 'uploadAttachment', {
      tags: ['sending'],
      summary: 'Upload one compose attachment',
      description:
        'multipart/form-data with exactly one file part. Streamed to storage; over 50 MB it is ' +
        '413 max_limit_reached, and it must fit in the mailbox quota with the other pending uploads.',
      consumes: ['multipart/form-data'],
    }),
    handler: async (request) => {
      const principal = request.requireAuth();
      if (!request.isMultipart()) throw new DomainError('invalid_request_params');
      let file;
      try {
        file = await request.file();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        // No boundary, a malformed part header, a body cut off before the first part: the client's form is broken.
        throw new DomainError('invalid_request_params');
      }
      if (!file) throw new DomainError('invalid_request_params');
      const length = Number(request.headers['content-length']);
      // A form cut off inside the file part fails the file's stream: that is the client's, not ours.
      let formBroken = false;
      file.file.once('error', () => (formBroken = true));
      const broken = () => formBroken || file.file.errored !== null || file.file.truncated;
      try {
        const attachment = await uploadAttachment(db, blobs, principal, {
          stream: file.file,
          name: file.filename,
          contentType: file.mimetype,
          ...(Number.isFinite(length) && length > 0 ? { declaredSize: length - 8192 } : {}),
        });
        return { attachment };
      } catch (err) {
        if (!(err instanceof DomainError) && broken()) throw new DomainError('invalid_request_params');
        throw err;
      } finally {
        // Whatever is left of a refused upload is read and dropped, so the client gets the answer.
        file.file.resume();
      }
    },
  });

  app.route({
    ...apiRoute(app, 'copyAttachments', {
      tags: ['sending'],
      summary: 'Reuse attachments of a stored message in compose',
      description: 'For a forward or a reopened draft: the server copies them; nothing is uploaded.',
    }),
    handler: async (request) => ({
      attachments: await copyAttachments(db, blobs, request.requireAuth(), request.body),
    }),
  });
};
