import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { foldersResponseSchema } from '@mailroom/protocol';
import { getFolderTree } from './folders.service.js';

export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/folders',
    {
      schema: {
        tags: ['folders'],
        summary: 'The folder tree with unread counts',
        response: { 200: foldersResponseSchema },
      },
    },
    async (request) => ({ folders: await getFolderTree(app.deps.db, request.requireAuth().accountId) }),
  );
};
