import { requireFullSession } from '../accounts/index.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';

import { labelMessages, searchMessages } from './search.service.js';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...apiRoute(app, 'searchMessages', {
      tags: ['messages'],
      summary: 'Search: full text over subject, body and sender (prefix, every word), with filters',
      description:
        'text matches words by prefix (every word must match), each in any of the fields named by fields ' +
        '(subject, from, to, body; subject, from and body when absent), from also by a piece of the ' +
        'sender address; subject ' +
        'only the subject; from the sender by word or by a piece of the address. total and all both ' +
        'count every match.',
    }),
    // A session held to one address searches only mail to it, whatever alias_id it asks for.
    handler: async (request) => searchMessages(app.deps.db, request.requireAuth(), request.body),
  });

  app.route({
    ...apiRoute(app, 'labelMessages', {
      tags: ['messages'],
      summary: "A label's list: messages carrying it and those its saved search finds",
      description: 'total and all both count every message of the list.',
    }),
    handler: async (request) =>
      labelMessages(
        app.deps.db,
        requireFullSession(request.requireAuth()).accountId,
        request.params.label_id,
        request.query,
      ),
  });
};
