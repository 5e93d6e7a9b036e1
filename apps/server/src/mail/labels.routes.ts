import { requireFullSession } from '../accounts/index.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';
import { changeLabel, createLabel, listLabels, removeLabel } from '../mailbox/index.js';
import type { FastifyRequest } from 'fastify';
import { changeStore, type StoreChangeDeps } from './store-change.js';

/** Labels are the account's own data: the owner's other tabs read them again (their sidebar, colours, names). */
const labelsChanged = [{ event: 'updateAccount', part: 'labels' }] as const;

export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (request: FastifyRequest): StoreChangeDeps => ({
    db: app.deps.db,
    events: app.deps.events,
    log: request.log,
  });
  app.route({
    ...apiRoute(app, 'labels', { tags: ['labels'], summary: "The caller's labels" }),
    handler: async (request) => ({
      labels: await listLabels(app.deps.db, requireFullSession(request.requireAuth()).accountId),
    }),
  });

  app.route({
    ...apiRoute(app, 'createLabel', {
      tags: ['labels'],
      summary: 'Create a label (a message keyword with a saved search)',
    }),
    handler: async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      const label = await changeStore(deps(request), accountId, async (trx) => ({
        result: await createLabel(trx, accountId, request.body.label),
        events: labelsChanged,
      }));
      return { label };
    },
  });

  app.route({
    ...apiRoute(app, 'updateLabel', {
      tags: ['labels'],
      summary: 'Change a label; fields not given stay',
    }),
    handler: async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      const label = await changeStore(deps(request), accountId, async (trx) => ({
        result: await changeLabel(trx, accountId, request.params.id, request.body.label),
        events: labelsChanged,
      }));
      return { label };
    },
  });

  app.route({
    ...apiRoute(app, 'deleteLabel', {
      tags: ['labels'],
      summary: 'Delete a label and take it off every message',
    }),
    handler: async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      await changeStore(deps(request), accountId, async (trx) => ({
        result: undefined,
        events: [...(await removeLabel(trx, accountId, request.params.id)), ...labelsChanged],
      }));
      return { ok: true as const };
    },
  });
};
