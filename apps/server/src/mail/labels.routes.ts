import { requireFullSession } from './session-scope.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamSchema,
  labelCreateSchema,
  labelResponseSchema,
  labelsResponseSchema,
  labelUpdateSchema,
  okSchema,
} from '@mailroom/protocol';
import { changeLabel, createLabel, listLabels, removeLabel } from './labels.service.js';
import { publishAfterCommit } from '../core/events/index.js';

const params = z.object({ id: idParamSchema });

export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/labels',
    { schema: { tags: ['labels'], summary: "The caller's labels", response: { 200: labelsResponseSchema } } },
    async (request) => ({
      labels: await listLabels(app.deps.db, requireFullSession(request.requireAuth()).accountId),
    }),
  );

  app.post(
    '/labels',
    {
      schema: {
        tags: ['labels'],
        summary: 'Create a label (a message keyword with a saved search)',
        body: labelCreateSchema,
        response: { 200: labelResponseSchema },
      },
    },
    async (request) => ({
      label: await createLabel(
        app.deps.db,
        requireFullSession(request.requireAuth()).accountId,
        request.body.label,
      ),
    }),
  );

  app.post(
    '/labels/:id',
    {
      schema: {
        tags: ['labels'],
        summary: 'Change a label; fields not given stay',
        params,
        body: labelUpdateSchema,
        response: { 200: labelResponseSchema },
      },
    },
    async (request) => ({
      label: await changeLabel(
        app.deps.db,
        requireFullSession(request.requireAuth()).accountId,
        request.params.id,
        request.body.label,
      ),
    }),
  );

  app.delete(
    '/labels/:id',
    {
      schema: {
        tags: ['labels'],
        summary: 'Delete a label and take it off every message',
        params,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      const { accountId } = requireFullSession(request.requireAuth());
      const events = await removeLabel(app.deps.db, accountId, request.params.id);
      await publishAfterCommit(app.deps.events, request.log, accountId, events);
      return { ok: true as const };
    },
  );
};
