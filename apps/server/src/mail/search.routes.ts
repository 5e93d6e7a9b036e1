import { requireFullSession } from './session-scope.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamSchema,
  listQuerySchema,
  mailListResponseSchema,
  messageQuerySchema,
} from '@mailroom/protocol';
import { labelMessages, searchMessages } from './search.service.js';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/messages/search',
    {
      schema: {
        tags: ['messages'],
        summary: 'Search: full text over subject, body and sender (prefix, every word), with filters',
        description:
          'text matches words of the subject, sender and body by prefix (every word must match); subject ' +
          'only the subject; from the sender by word or by a piece of the address. total and all both ' +
          'count every match.',
        // Every field is optional, so unknown keys are refused: a misspelt filter must not search everything.
        body: messageQuerySchema.strict(),
        response: { 200: mailListResponseSchema },
      },
    },
    // A session held to one address searches only mail to it, whatever alias_id it asks for.
    async (request) => searchMessages(app.deps.db, request.requireAuth(), request.body),
  );

  app.get(
    '/messages/label/:label_id',
    {
      schema: {
        tags: ['messages'],
        summary: "A label's list: messages carrying it and those its saved search finds",
        description: 'total and all both count every message of the list.',
        params: z.object({ label_id: idParamSchema }),
        querystring: listQuerySchema,
        response: { 200: mailListResponseSchema },
      },
    },
    async (request) =>
      labelMessages(
        app.deps.db,
        requireFullSession(request.requireAuth()).accountId,
        request.params.label_id,
        request.query,
      ),
  );
};
