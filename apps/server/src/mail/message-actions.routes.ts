import type { FastifyBaseLogger } from 'fastify';
import { requireFullSession } from './session-scope.js';
import { publishAfterCommit } from '../core/events/index.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  actionResultSchema,
  bulkRequestSchema,
  deleteRequestSchema,
  emptyRequestSchema,
  markRequestSchema,
  moveRequestSchema,
  searchActionSchema,
} from '@mailroom/protocol';
import { bulkAction } from './message-actions.bulk.js';
import { actOnMessages, emptyFolder, type ActionOutcome } from './message-actions.service.js';

const response = { 200: actionResultSchema };

export const messageActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = async (
    request: { log: FastifyBaseLogger },
    accountId: number,
    outcome: Promise<ActionOutcome>,
  ) => {
    const { result, events } = await outcome;
    await publishAfterCommit(app.deps.events, request.log, accountId, events);
    return result;
  };

  app.post(
    '/messages/mark',
    {
      schema: {
        tags: ['messages'],
        summary: 'Set or clear seen, flagged or a label on messages',
        body: markRequestSchema,
        response,
      },
    },
    async (request) => {
      const principal = request.requireAuth();
      return answer(
        request,
        principal.accountId,
        actOnMessages(app.deps.db, principal, 'mark', request.body),
      );
    },
  );

  app.post(
    '/messages/move',
    {
      schema: {
        tags: ['messages'],
        summary: 'Move messages to a folder; they get new UIDs there',
        body: moveRequestSchema,
        response,
      },
    },
    async (request) => {
      const principal = request.requireAuth();
      return answer(
        request,
        principal.accountId,
        actOnMessages(app.deps.db, principal, 'move', request.body),
      );
    },
  );

  app.post(
    '/messages/delete',
    {
      schema: {
        tags: ['messages'],
        summary: 'Move messages to Trash; from Trash or Junk delete them for good',
        body: deleteRequestSchema,
        response,
      },
    },
    async (request) => {
      const principal = request.requireAuth();
      return answer(
        request,
        principal.accountId,
        actOnMessages(app.deps.db, principal, 'delete', request.body),
      );
    },
  );

  app.post(
    '/messages/empty',
    {
      schema: {
        tags: ['messages'],
        summary: 'Delete every message of Trash or Junk for good',
        body: emptyRequestSchema,
        response,
      },
    },
    async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      return answer(request, accountId, emptyFolder(app.deps.db, accountId, request.body.folder_id));
    },
  );

  app.post(
    '/messages/bulk',
    {
      schema: {
        tags: ['messages'],
        summary: 'Move, mark or list every message of a folder, label or search (all pages)',
        description:
          'request is the active view (folder_id, label_id or search fields); page and limit are ignored. ' +
          "'get' answers folder_messages: every matching uid grouped by folder.",
        body: bulkRequestSchema,
        response,
      },
    },
    async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      const { request_type, request_params, request: query } = request.body;
      return answer(
        request,
        accountId,
        bulkAction(app.deps.db, accountId, request_type, request_params, query),
      );
    },
  );

  for (const type of ['delete', 'move', 'mark'] as const) {
    app.post(
      `/messages/search/${type}`,
      {
        schema: {
          tags: ['messages'],
          summary: `${type[0]!.toUpperCase()}${type.slice(1)} every message a search finds (all pages)`,
          body: searchActionSchema,
          response,
        },
      },
      async (request) => {
        const { accountId } = requireFullSession(request.requireAuth());
        const { request: query, ...params } = request.body;
        return answer(request, accountId, bulkAction(app.deps.db, accountId, type, params, query));
      },
    );
  }
};
