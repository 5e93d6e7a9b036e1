import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountSchema,
  settingsResponseSchema,
  settingsUpdateSchema,
  userResponseSchema,
} from '@mailroom/protocol';
import { changeSettings, getSettings, getUserInfo } from '../accounts/index.js';
import { getAccountView } from './user.service.js';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    '/user',
    {
      schema: {
        tags: ['user'],
        summary: 'The signed-in user; the first item carries user_info',
        response: { 200: userResponseSchema },
      },
    },
    async (request) => [{ user_info: await getUserInfo(db, request.requireAuth()) }],
  );

  app.get(
    '/user/account',
    {
      schema: {
        tags: ['user'],
        summary: 'Account: addresses, profiles, settings and quota (in KB)',
        response: { 200: accountSchema },
      },
    },
    async (request) => getAccountView(db, request.requireAuth()),
  );

  app.get(
    '/user/settings',
    { schema: { tags: ['user'], response: { 200: settingsResponseSchema } } },
    async (request) => ({ settings: await getSettings(db, request.requireAuth().accountId) }),
  );

  app.post(
    '/user/settings',
    {
      schema: {
        tags: ['user'],
        summary: 'Change any subset of the settings',
        body: settingsUpdateSchema,
        response: { 200: settingsResponseSchema },
      },
    },
    async (request) => ({
      settings: await changeSettings(db, request.requireAuth().accountId, request.body),
    }),
  );
};
