import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LANG_COOKIE } from '@mailroom/protocol';
import { apiRoute, cookieOptions } from '../http/index.js';
import { getSettings, getUserInfo, ownerOnly } from '../accounts/index.js';
import { getAccountView, saveSettings } from './user.service.js';
import { createProfile, deleteProfile, updateProfile } from './profiles.service.js';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, events, config } = app.deps;

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
    ...apiRoute(app, 'settings', { tags: ['user'], summary: 'The settings (the mailbox owner only)' }),
    handler: async (request) => ({ settings: await getSettings(db, ownerOnly(request.requireAuth())) }),
  });

  app.route({
    ...apiRoute(app, 'changeSettings', {
      tags: ['user'],
      summary: 'Change any subset of the settings (the mailbox owner only)',
      description:
        'Saving `language` also sets the lang cookie the web app reads (null clears it: the browser decides).',
    }),
    handler: async (request, reply) => {
      const accountId = ownerOnly(request.requireAuth());
      const settings = await saveSettings({ db, events, log: request.log }, accountId, request.body);
      const language = request.body.language;
      if (language) {
        reply.setCookie(
          LANG_COOKIE,
          language,
          cookieOptions(config, { httpOnly: false, maxAge: ONE_YEAR_S }),
        );
      } else if (language === null) {
        reply.clearCookie(LANG_COOKIE, cookieOptions(config, { httpOnly: false }));
      }
      return { settings };
    },
  });

  app.route({
    ...apiRoute(app, 'createProfile', {
      tags: ['user'],
      summary: 'Add a sender identity: display name, an address the account may send from, signature',
    }),
    handler: async (request) => ({
      profiles: await createProfile(
        { db, events, log: request.log },
        ownerOnly(request.requireAuth()),
        request.body,
      ),
    }),
  });

  app.route({
    ...apiRoute(app, 'updateProfile', {
      tags: ['user'],
      summary: 'Change a profile; the fields not given stay. default: true makes it the one default',
    }),
    handler: async (request) => ({
      profiles: await updateProfile(
        { db, events, log: request.log },
        ownerOnly(request.requireAuth()),
        request.params.id,
        request.body,
      ),
    }),
  });

  app.route({
    ...apiRoute(app, 'deleteProfile', {
      tags: ['user'],
      summary: 'Delete a profile (not the last); the oldest left becomes the default if it was',
    }),
    handler: async (request) => ({
      profiles: await deleteProfile(
        { db, events, log: request.log },
        ownerOnly(request.requireAuth()),
        request.params.id,
      ),
    }),
  });
};
