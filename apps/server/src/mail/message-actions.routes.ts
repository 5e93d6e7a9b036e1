import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { apiRoute } from '../http/index.js';
import { bulkAction } from './message-actions.bulk.js';
import { emptyFolder } from '../mailbox/index.js';
import { actOnMessages } from './message-actions.service.js';
import { changeStore, type StoreChangeDeps } from './store-change.js';
import { requireFullSession } from '../accounts/index.js';

const tags = ['messages'];

export const messageActionRoutes: FastifyPluginAsyncZod = async (app) => {
  /** A change's deps: its events go to the process's bus, a failure to publish to the request's log. */
  const deps = (request: FastifyRequest): StoreChangeDeps => ({
    db: app.deps.db,
    events: app.deps.events,
    log: request.log,
  });

  app.route({
    ...apiRoute(app, 'markMessages', { tags, summary: 'Set or clear seen, flagged or a label on messages' }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return actOnMessages(deps(request), principal, 'mark', request.body);
    },
  });

  app.route({
    ...apiRoute(app, 'moveMessages', { tags, summary: 'Move messages to a folder; they get new UIDs there' }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return actOnMessages(deps(request), principal, 'move', request.body);
    },
  });

  app.route({
    ...apiRoute(app, 'deleteMessages', {
      tags,
      summary: 'Move messages to Trash; from Trash or Junk delete them for good',
    }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return actOnMessages(deps(request), principal, 'delete', request.body);
    },
  });

  app.route({
    ...apiRoute(app, 'snoozeMessages', {
      tags,
      summary: 'Put messages away in Snoozed until a time, with the rest of their conversations',
      description:
        'At `until` they come back to the folder they were in, at the top and unread, with a note; new mail in ' +
        'the conversation brings them back at once. `until` ahead of now and at most a year: time_out_of_range.',
    }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return actOnMessages(deps(request), principal, 'snooze', request.body);
    },
  });

  app.route({
    ...apiRoute(app, 'unsnoozeMessages', {
      tags,
      summary: 'Bring snoozed messages back now, as they were',
    }),
    handler: async (request) => {
      const principal = request.requireAuth();
      return actOnMessages(deps(request), principal, 'unsnooze', request.body);
    },
  });

  app.route({
    ...apiRoute(app, 'emptyFolder', { tags, summary: 'Delete every message of Trash or Junk for good' }),
    handler: async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      return changeStore(deps(request), accountId, (trx) =>
        emptyFolder(trx, accountId, request.body.folder_id),
      );
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
      return bulkAction(deps(request), accountId, request_type, request_params, query);
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
        return bulkAction(deps(request), accountId, type, params, query);
      },
    });
  }
};
