import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentRoutes } from './attachments.js';
import { exportRoutes } from './export/index.js';
import { folderRoutes } from './folders.routes.js';
import { labelRoutes } from './labels.routes.js';
import { messageActionRoutes } from './message-actions.routes.js';
import { searchRoutes } from './search.routes.js';
import { messagesReadRoutes } from './messages-read.routes.js';
import { ImageFetcher, ImageUrlSigner, imageProxyRoutes } from './image-proxy/index.js';

/** The mail API: each area registers its routes here with one line. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, secrets } = app.deps;
  const signer = new ImageUrlSigner(secrets.imageProxySecret);
  const fetcher = new ImageFetcher({ ...config.imageProxy, maxRedirects: 3 });
  await app.register(folderRoutes);
  await app.register(messagesReadRoutes, { signer });
  await app.register(imageProxyRoutes, { signer, fetcher, rateLimit: config.imageProxy.rateLimit });
  await app.register(attachmentRoutes);
  await app.register(labelRoutes);
  await app.register(searchRoutes);
  await app.register(messageActionRoutes);
  await app.register(exportRoutes);
};
