import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownerOnly } from '../accounts/index.js';
import { apiRoute } from '../http/index.js';
import { addSenders, allowContacts, listSenders, removeSender } from './senders.service.js';

const tags = ['spam'];

/**
 * Settings › Spam (issue 30): the member's allow and block lists of senders, the owner's alone like the other
 * settings (a session held to one address is refused).
 */
export const spamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.route({
    ...apiRoute(app, 'senders', { tags, summary: 'The allow and block lists of senders, newest first' }),
    handler: async (request) => ({ senders: await listSenders(db, ownerOnly(request.requireAuth())) }),
  });

  app.route({
    ...apiRoute(app, 'addSenders', {
      tags,
      summary: 'Put addresses or domains on the allow or block list',
      description:
        'An address (name@example.com) or a domain (example.com, its subdomains too). An allowed sender whose ' +
        'domain proved itself (DMARC) skips the spam score; a blocked one goes to Junk. Neither overrides a ' +
        'DMARC reject. sender_entry_invalid for anything else, sender_lists_full past the limit.',
    }),
    handler: async (request) =>
      addSenders(db, ownerOnly(request.requireAuth()), request.body.list, request.body.entries),
  });

  app.route({
    ...apiRoute(app, 'allowContacts', {
      tags,
      summary: 'Every address of the address book onto the allow list',
    }),
    handler: async (request) => allowContacts(db, ownerOnly(request.requireAuth())),
  });

  app.route({
    ...apiRoute(app, 'deleteSender', { tags, summary: 'Take an address or domain off its list' }),
    handler: async (request) => {
      await removeSender(db, ownerOnly(request.requireAuth()), request.query.entry);
      return { ok: true as const };
    },
  });
};
