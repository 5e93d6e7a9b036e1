import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';
import { ownAccountOnly } from '../accounts/index.js';
import { withFilterActions, type SendingDeps } from '../sending/index.js';
import { createSupportRequest, listSupportRequests, supportDiagnostics } from './support.service.js';

const tags = ['support'];

/** settings/support (SPEC §2): the member's own, like the rest of the security section. */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const deps: SendingDeps = withFilterActions({ ...app.deps, log: app.log.child({ area: 'support' }) });

  app.route({
    ...apiRoute(app, 'supportRequests', { tags, summary: 'Support requests sent, newest first' }),
    handler: async (request) =>
      listSupportRequests(db, app.deps.config, ownAccountOnly(request.requireAuth())),
  });

  app.route({
    ...apiRoute(app, 'supportDiagnostics', { tags, summary: 'The diagnostics a request may include' }),
    handler: async (request) => ({
      diagnostics: await supportDiagnostics(db, ownAccountOnly(request.requireAuth())),
    }),
  });

  app.route({
    ...apiRoute(app, 'createSupportRequest', {
      tags,
      summary: 'Send a support request as mail to the support address, or keep it for the operator',
    }),
    handler: async (request) => {
      const principal = request.requireAuth();
      ownAccountOnly(principal);
      return createSupportRequest(deps, principal, request.body);
    },
  });
};
