import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publishAfterCommit } from '../core/events/index.js';
import { apiRoute } from '../http/index.js';
import { bulkAction } from './message-actions.bulk.js';
import { emptyFolder, type ActionOutcome } from '../mailbox/index.js';
import { actOnMessages } from './message-actions.service.js';
import { requireFullSession } from '../accounts/index.js';

const tags = ['messages'];

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

  app.route({
    ...apiRoute(app, 'markMessages', { tags, summary: 'Set or clear seen, flagged or a label on messages' }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return answer(
        request,
        principal.accountId,
        actOnMessages(app.deps.db, principal, 'mark', request.body),
      );
    },
  });

  app.route({
    ...apiRoute(app, 'moveMessages', { tags, summary: 'Move messages to a folder; they get new UIDs there' }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return answer(
        request,
        principal.accountId,
        actOnMessages(app.deps.db, principal, 'move', request.body),
      );
    },
  });

  app.route({
    ...apiRoute(app, 'deleteMessages', {
      tags,
      summary: 'Move messages to Trash; from Trash or Junk delete them for good',
    }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return answer(
        request,
        principal.accountId,
        actOnMessages(app.deps.db, principal, 'delete', request.body),
      );
    },
  });

  app.route({
    ...apiRoute(app, 'emptyFolder', { tags, summary: 'Delete every message of Trash or Junk for good' }),
    handler: async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      return answer(request, accountId, emptyFolder(app.deps.db, accountId, request.body.folder_id));
    },
  });

  app.route({
    ...apiRoute(app, 'bulkAction', {
      tags,
      summary: 'Move, mark or list every message of a folder, label or search (all pages)',
      description:
        'request is the active view (folder_id, label_id or search fields); page and limit are ignored. ' +
        "'get' answers folder_messages: every matching uid grouped by folder.",
    }),
    handler: async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      const { request_type, request_params, request: query } = request.body;
      return answer(
        request,
        accountId,
        bulkAction(app.deps.db, accountId, request_type, request_params, query),
      );
    },
  });

  for (const [name, type] of [
    ['searchDelete', 'delete'],
    ['searchMove', 'move'],
    ['searchMark', 'mark'],
  ] as const) {
    app.route({
      ...apiRoute(app, name, {
        tags,
        summary: `${type[0]!.toUpperCase()}${type.slice(1)} every message a search finds (all pages)`,
      }),
      handler: async (request) => {
        const { accountId } = requireFullSession(request.requireAuth());
        const { request: query, ...params } = request.body;
        return answer(request, accountId, bulkAction(app.deps.db, accountId, type, params, query));
      },
    });
  }
};
