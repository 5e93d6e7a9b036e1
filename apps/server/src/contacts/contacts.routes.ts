import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownerOnly } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { apiRoute } from '../http/index.js';
import {
  createContact,
  getContact,
  getContacts,
  knownAddress,
  removeContacts,
  updateContact,
} from './contacts.service.js';
import {
  changeGroup,
  changeMembers,
  createGroup,
  getGroup,
  getGroups,
  removeGroup,
} from './groups.service.js';
import type { ContactsDeps } from './changes.js';
import { suggest } from './suggest.service.js';
import { CONTACTS_FILE_MAX_BYTES } from './contacts-file.js';
import { exportContacts } from './export.service.js';
import { getImport, startImport } from './transfer.service.js';

/** What an import's body may be sent as; anything else (or none: a file the browser has no type for) is read too. */
const IMPORT_TYPES = [
  'text/vcard',
  'text/x-vcard',
  'text/directory',
  'text/csv',
  'text/x-csv',
  'text/comma-separated-values',
  'application/vnd.ms-excel',
  'text/plain',
  'application/octet-stream',
];

/**
 * Contacts and groups (SPEC §7, issue 15): the mailbox owner's alone (forbidden to a session held to one address),
 * but for compose's suggestions, which such a session gets empty (SPEC §6).
 */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const limits = app.deps.config.contacts;
  /** A change's deps: its events go to the process's bus, a failure to publish to the request's log. */
  const deps = (request: FastifyRequest): ContactsDeps => ({ db, events: app.deps.events, log: request.log });

  app.route({
    ...apiRoute(app, 'contacts', {
      tags: ['contacts'],
      summary:
        'A page of contacts by surname then name, or a search (each word found inside a name, address or phone)',
    }),
    handler: async (request) => getContacts(db, ownerOnly(request.requireAuth()), request.query),
  });

  app.route({
    ...apiRoute(app, 'contact', { tags: ['contacts'], summary: 'One contact' }),
    handler: async (request) => ({
      contact: await getContact(db, ownerOnly(request.requireAuth()), request.params.id),
    }),
  });

  app.route({
    ...apiRoute(app, 'createContact', { tags: ['contacts'], summary: 'Add a contact' }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      const contact = await createContact(deps(request), accountId, request.body, limits);
      return { contact };
    },
  });

  app.route({
    ...apiRoute(app, 'updateContact', {
      tags: ['contacts'],
      summary: 'Change a contact; fields not given stay',
    }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      const contact = await updateContact(deps(request), accountId, request.params.id, request.body);
      return { contact };
    },
  });

  app.route({
    ...apiRoute(app, 'deleteContact', { tags: ['contacts'], summary: 'Delete a contact' }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      await removeContacts(deps(request), accountId, [request.params.id]);
      return { ok: true as const };
    },
  });

  app.route({
    ...apiRoute(app, 'deleteContacts', {
      tags: ['contacts'],
      summary: 'Delete several contacts; all must be the caller’s, or none goes',
    }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      await removeContacts(deps(request), accountId, request.body.ids);
      return { ok: true as const };
    },
  });

  // The file is the body: its own parser, for this route alone, up to 5 MB.
  await app.register(async (plugin) => {
    const scoped = plugin.withTypeProvider<ZodTypeProvider>();
    const raw = (_request: unknown, body: Buffer, done: (err: null, body: Buffer) => void) =>
      done(null, body);
    scoped.addContentTypeParser(IMPORT_TYPES, { parseAs: 'buffer', bodyLimit: CONTACTS_FILE_MAX_BYTES }, raw);
    scoped.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CONTACTS_FILE_MAX_BYTES }, raw);
    scoped.route({
      ...apiRoute(scoped, 'importContacts', {
        tags: ['contacts'],
        summary:
          'Import a vCard (2.1, 3.0, 4.0) or CSV (Google, Outlook) file, sent as the body (5 MB at most)',
        description:
          'Answers at once with the import, which runs as a job a batch at a time (its progress: GET ' +
          'contacts/imports/{id} and the contactImport event). Contacts already there (the same address, else ' +
          'the same name and surname) are completed, not added again, so the same file twice adds nothing the ' +
          'second time. Groups come from CATEGORIES, group vCards and the CSV group columns. New contacts past ' +
          'MAX_CONTACTS and groups past MAX_CONTACT_GROUPS are counted, not added. One import at a time.',
        consumes: IMPORT_TYPES,
      }),
      handler: async (request) => {
        const accountId = ownerOnly(request.requireAuth());
        if (!Buffer.isBuffer(request.body) || request.body.length === 0)
          throw new DomainError('contacts_file_unreadable');
        return startImport(db, app.deps.blobs, accountId, request.body, request.query);
      },
    });
  });

  app.route({
    ...apiRoute(app, 'contactImport', {
      tags: ['contacts'],
      summary: 'An import’s progress and, once done, what it added, completed, skipped and left out',
    }),
    handler: async (request) => getImport(db, ownerOnly(request.requireAuth()), request.params.id),
  });

  app.route({
    ...apiRoute(app, 'exportContacts', {
      tags: ['contacts'],
      summary: 'Every contact, or one group’s, as a vCard 4.0 file (a download)',
    }),
    handler: async (request, reply) => {
      const { text, fileName } = await exportContacts(
        db,
        ownerOnly(request.requireAuth()),
        request.query.group,
      );
      return reply
        .header('content-type', 'text/vcard; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${fileName.ascii}"; filename*=UTF-8''${encodeURIComponent(fileName.utf8)}`,
        )
        .header('cache-control', 'no-store')
        .send(text);
    },
  });

  app.route({
    ...apiRoute(app, 'suggestContacts', {
      tags: ['contacts'],
      summary: "Compose's To/Cc/Bcc suggestions: contacts, groups and addresses written to",
    }),
    handler: async (request) => ({
      suggestions: await suggest(db, request.requireAuth(), request.query.q, request.query.limit),
    }),
  });

  app.route({
    ...apiRoute(app, 'knownContact', {
      tags: ['contacts'],
      summary: 'Whether an address is a contact, and whether the caller has written to it',
    }),
    handler: async (request) => knownAddress(db, ownerOnly(request.requireAuth()), request.query.email),
  });

  app.route({
    ...apiRoute(app, 'groups', { tags: ['contacts'], summary: 'The groups, each with its size' }),
    handler: async (request) => ({ groups: await getGroups(db, ownerOnly(request.requireAuth())) }),
  });

  app.route({
    ...apiRoute(app, 'group', { tags: ['contacts'], summary: 'A group with its contacts' }),
    handler: async (request) => ({
      group: await getGroup(db, ownerOnly(request.requireAuth()), request.params.id),
    }),
  });

  app.route({
    ...apiRoute(app, 'createGroup', {
      tags: ['contacts'],
      summary: 'Make a group (its name unique in any case)',
    }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      const group = await createGroup(deps(request), accountId, request.body.name, limits.maxGroups);
      return { group };
    },
  });

  app.route({
    ...apiRoute(app, 'updateGroup', { tags: ['contacts'], summary: 'Rename a group' }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      const group = await changeGroup(deps(request), accountId, request.params.id, request.body.name);
      return { group };
    },
  });

  app.route({
    ...apiRoute(app, 'groupMembers', {
      tags: ['contacts'],
      summary: 'Add contacts to a group and take others out',
    }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      const group = await changeMembers(deps(request), accountId, request.params.id, request.body);
      return { group };
    },
  });

  app.route({
    ...apiRoute(app, 'deleteGroup', { tags: ['contacts'], summary: 'Delete a group; its contacts stay' }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      await removeGroup(deps(request), accountId, request.params.id);
      return { ok: true as const };
    },
  });
};
