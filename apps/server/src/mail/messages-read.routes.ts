import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';
import {
  listFolderMessages,
  readMessage,
  readMessageById,
  type ImageChoice,
} from './messages-read.service.js';
import type { ImageUrlSigner } from './image-proxy/index.js';

export const messagesReadRoutes: FastifyPluginAsyncZod<{ signer: ImageUrlSigner }> = async (
  app,
  { signer },
) => {
  const { db } = app.deps;
  // show_images=true or false decides; without it the image_display setting does.
  const images = (asked: 'true' | 'false' | undefined): ImageChoice =>
    asked === 'true' ? signer : asked === 'false' ? false : { bySetting: signer };

  app.route({
    ...apiRoute(app, 'folderMessages', {
      tags: ['messages'],
      summary: 'A page of a folder',
      description:
        'Newest first (unread first with the unread_first setting); one row per chain with the ' +
        'message_thread setting, the newest message of the chain in this folder, its other members ' +
        'in `threads`. `a_id`: all, 0 for mail to the main address, or an alias id. `limit` defaults ' +
        'to the per_page setting. `total` counts the rows this list pages through (chains when ' +
        'threaded, else messages); `all` counts every message in the view (folder, narrowed by a_id).',
    }),
    handler: async (request) =>
      listFolderMessages(db, request.requireAuth(), request.params.folder_id, request.query),
  });

  app.route({
    ...apiRoute(app, 'message', {
      tags: ['messages'],
      summary: 'Open a message',
      description:
        'HTML is sanitised on the server; remote images and tracking pixels are left out unless ' +
        'show_images=true, which points remote images at the image proxy (tracking pixels and ' +
        'external CSS stay out), or, without show_images, the image_display setting shows them (always; ' +
        'correspondent: the sender is a contact or an address written to); show_images=false leaves them out. ' +
        'cid: images point at the attachment URL. Does not mark the ' +
        'message seen. 404 message_not_found for an unknown UID, 400 request_folder_id_error for ' +
        'a folder id that is not a number.',
    }),
    handler: async (request) => ({
      message: await readMessage(
        db,
        request.requireAuth(),
        request.params.folder_id,
        request.params.uid,
        images(request.query.show_images),
        app.deps.config.inbound.protectedDomains,
      ),
    }),
  });

  app.route({
    ...apiRoute(app, 'messageById', {
      tags: ['messages'],
      summary: 'Open a message by its Message-ID (the newest copy)',
    }),
    handler: async (request) => ({
      message: await readMessageById(
        db,
        request.requireAuth(),
        request.query.message_id,
        images(request.query.show_images),
        app.deps.config.inbound.protectedDomains,
      ),
    }),
  });
};
