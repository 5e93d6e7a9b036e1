import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentRoutes } from './attachments.js';
import { folderRoutes } from './folders.routes.js';
import { labelRoutes } from './labels.routes.js';
import { messageActionRoutes } from './message-actions.routes.js';
import { searchRoutes } from './search.routes.js';
import { messagesReadRoutes } from './messages-read.routes.js';

/** The mail API: each area registers its routes here with one line. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(folderRoutes);
  await app.register(messagesReadRoutes);
  await app.register(attachmentRoutes);
  await app.register(labelRoutes);
  await app.register(searchRoutes);
  await app.register(messageActionRoutes);
};
