import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MailEvent } from '@mailroom/protocol';
import { apiRoute } from '../http/index.js';
import { createFolder, deleteFolder, updateFolder } from '../mailbox/index.js';
import { changeStore, type StoreChangeDeps } from './store-change.js';
import { folderTreeFor, getFolder } from './folders.service.js';
import { ownerOnly } from '../accounts/index.js';

export const folderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const deps = (request: FastifyRequest): StoreChangeDeps => ({
    db,
    events: app.deps.events,
    log: request.log,
  });
  /** Clients reload the folder list on this event, once the change has committed. */
  const listChanged: MailEvent[] = [{ event: 'updateMailboxList' }];

  app.route({
    ...apiRoute(app, 'folders', { tags: ['folders'], summary: 'The folder tree with unread counts' }),
    handler: async (request) => ({
      folders: await folderTreeFor(db, request.requireAuth(), app.deps.config.inbound.junkRetentionDays),
    }),
  });

  app.route({
    ...apiRoute(app, 'createFolder', {
      tags: ['folders'],
      summary: 'Create a folder',
      description:
        'parent_id null (or the Inbox) makes a top-level folder. Refused: name_not_indicated, ' +
        'folder_name_invalid (dots, slashes, control characters, too long or too deep), ' +
        'folder_already_exist (names compare without case), folder_parent_wrong.',
    }),
    // A control character in a name is folder_name_invalid, which says more than a NUL's invalid_request_params.
    config: { checksNul: true },
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      const id = await changeStore(deps(request), accountId, async (trx) => ({
        result: await createFolder(trx, accountId, request.body.folder),
        events: listChanged,
      }));
      return { folder: await getFolder(db, accountId, id) };
    },
  });

  app.route({
    ...apiRoute(app, 'updateFolder', {
      tags: ['folders'],
      summary: 'Rename and/or move a folder; its subfolders move with it',
      description:
        'Ids, UIDVALIDITY and UIDs are kept. System folders cannot be changed (forbidden); a parent ' +
        'that is the folder itself or one of its subfolders is folder_parent_wrong.',
    }),
    // A control character in a name is folder_name_invalid, which says more than a NUL's invalid_request_params.
    config: { checksNul: true },
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      await changeStore(deps(request), accountId, async (trx) => {
        const changed = await updateFolder(trx, accountId, request.params.id, request.body.folder);
        return { result: changed, events: changed ? listChanged : [] };
      });
      return { folder: await getFolder(db, accountId, request.params.id) };
    },
  });

  app.route({
    ...apiRoute(app, 'deleteFolder', {
      tags: ['folders'],
      summary: 'Delete a folder and its messages',
      description:
        'Refused with folder_children_exist while it has subfolders, forbidden for system folders. ' +
        'The messages are deleted for good and their size is given back to the quota.',
    }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      await changeStore(deps(request), accountId, async (trx) => ({
        result: await deleteFolder(trx, accountId, request.params.id),
        events: listChanged,
      }));
      return { ok: true as const };
    },
  });
};
