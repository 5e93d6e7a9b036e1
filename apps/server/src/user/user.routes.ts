import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';

import { changeSettings, getSettings, getUserInfo, ownerOnly } from '../accounts/index.js';
import { getAccountView } from './user.service.js';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.route({
    ...apiRoute(app, 'user', {
      tags: ['user'],
      summary: 'The signed-in user; the first item carries user_info',
    }),
    handler: async (request) => [{ user_info: await getUserInfo(db, request.requireAuth()) }],
  });

  app.route({
    ...apiRoute(app, 'account', {
      tags: ['user'],
      summary: 'Account: addresses, profiles, settings and quota (in KB)',
    }),
    handler: async (request) => getAccountView(db, request.requireAuth()),
  });

  app.route({
    ...apiRoute(app, 'settings', { tags: ['user'] }),
    handler: async (request) => ({ settings: await getSettings(db, request.requireAuth().accountId) }),
  });

  app.route({
    ...apiRoute(app, 'changeSettings', {
      tags: ['user'],
      summary: 'Change any subset of the settings (the mailbox owner only)',
    }),
    handler: async (request) => ({
      settings: await changeSettings(db, ownerOnly(request.requireAuth()), request.body),
    }),
  });
};
