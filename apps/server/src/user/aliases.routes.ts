import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownAccountOnly } from '../accounts/index.js';
import { apiRoute } from '../http/index.js';
import {
  buyAlias,
  checkPayment,
  createAlias,
  deleteAlias,
  giveUpPaidAlias,
  listAccountAliases,
  listPaidAliases,
  updateAliasAccess,
  type AliasDeps,
} from './aliases.service.js';

/** settings/aliases (SPEC §2, §7): the mailbox owner's alone (an alias-only session gets forbidden). */
export const aliasRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (log: AliasDeps['log']): AliasDeps => ({
    ...app.deps,
    log,
    mailDomain: app.deps.config.mailDomain,
  });
  /** The request's deps and the account it may change: the owner's own, in their own session. */
  const owner = (request: FastifyRequest) =>
    [deps(request.log), ownAccountOnly(request.requireAuth())] as const;

  app.route({
    ...apiRoute(app, 'aliases', {
      tags: ['aliases'],
      summary: 'Every alias of the account with its status, and whether the free one is still to be taken',
    }),
    handler: async (request) => listAccountAliases(...owner(request)),
  });

  app.route({
    ...apiRoute(app, 'createAlias', {
      tags: ['aliases'],
      summary: 'Create the free alias (the local part only); active at once',
    }),
    handler: async (request) => ({
      alias: await createAlias(...owner(request), request.body.name),
    }),
  });

  app.route({
    ...apiRoute(app, 'deleteAlias', {
      tags: ['aliases'],
      summary: 'Delete an alias: it refuses mail from now on, its mail stays, its password sessions end',
    }),
    handler: async (request) => {
      await deleteAlias(...owner(request), request.params.id);
      return { ok: true as const };
    },
  });

  app.route({
    ...apiRoute(app, 'updateAliasAccess', {
      tags: ['aliases'],
      summary: 'Set (twice, equal) or remove (password: null) password access to an alias',
    }),
    handler: async (request) => ({
      alias: await updateAliasAccess(...owner(request), request.body),
    }),
  });

  app.route({
    ...apiRoute(app, 'paidAliases', {
      tags: ['aliases'],
      summary: 'The paid aliases with their status and invoice',
    }),
    handler: async (request) => listPaidAliases(...owner(request)),
  });

  app.route({
    ...apiRoute(app, 'createPaidAlias', {
      tags: ['aliases'],
      summary: 'Reserve a name as a paid alias and issue its invoice at the wallet (status unpaid)',
    }),
    handler: async (request) => ({
      paid_alias: await buyAlias(...owner(request), request.body.name),
    }),
  });

  app.route({
    ...apiRoute(app, 'checkAliasPayment', {
      tags: ['aliases'],
      summary: "'I have already paid': ask the wallet; paid activates the alias",
      description:
        'Still unpaid: pay_invoice. Rejected, expired or cancelled: pay_invoice_cancel (the alias failed).',
    }),
    handler: async (request) => ({
      paid_alias: await checkPayment(...owner(request), request.params.id),
    }),
  });

  app.route({
    ...apiRoute(app, 'deletePaidAlias', {
      tags: ['aliases'],
      summary: 'Give up an unpaid or failed paid alias (its invoice cancelled), or delete an active one',
    }),
    handler: async (request) => {
      await giveUpPaidAlias(...owner(request), request.params.id);
      return { ok: true as const };
    },
  });
};
