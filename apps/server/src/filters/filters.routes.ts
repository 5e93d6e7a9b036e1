import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownerOnly, requireFullSession } from '../accounts/index.js';
import { apiRoute } from '../http/index.js';
import { getFilters, saveFilters, testFilter, validateFilter } from './filters.service.js';
import { applyFilter, getFilterRun } from './filter-runs.service.js';

/** Settings › Filters: the owner's alone, like folders and labels. */
export const filterRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...apiRoute(app, 'filters', { tags: ['filters'], summary: "The caller's filters and their script" }),
    handler: async (request) => ({
      sieve_filter: await getFilters(app.deps.db, ownerOnly(request.requireAuth())),
    }),
  });

  app.route({
    ...apiRoute(app, 'saveFilters', {
      tags: ['filters'],
      summary: 'Save the whole list of filters in its order, or the whole script',
    }),
    handler: async (request) => {
      const principal = requireFullSession(request.requireAuth());
      return { sieve_filter: await saveFilters(app.deps.db, principal, request.body) };
    },
  });

  app.route({
    ...apiRoute(app, 'validateFilter', {
      tags: ['filters'],
      summary: "A script's or a filter's problems, with their line and column",
    }),
    handler: async (request) => {
      ownerOnly(request.requireAuth());
      return await validateFilter(request.body.script);
    },
  });

  app.route({
    ...apiRoute(app, 'testFilter', {
      tags: ['filters'],
      summary: 'What rules would do to one stored message; nothing changes',
    }),
    handler: async (request) =>
      testFilter(app.deps.db, app.deps.blobs, requireFullSession(request.requireAuth()), request.body),
  });

  app.route({
    ...apiRoute(app, 'applyFilter', {
      tags: ['filters'],
      summary: "Apply rules to a folder's existing mail as a background run (first dry, then for real)",
    }),
    handler: async (request) => ({
      run: await applyFilter(app.deps.db, ownerOnly(request.requireAuth()), request.body),
    }),
  });

  app.route({
    ...apiRoute(app, 'filterRun', { tags: ['filters'], summary: 'A run of a filter over a folder' }),
    handler: async (request) => ({
      run: await getFilterRun(app.deps.db, ownerOnly(request.requireAuth()), request.params.id),
    }),
  });
};
