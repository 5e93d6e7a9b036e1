import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';
import { ownAccountOnly } from '../accounts/index.js';
import { listAuthLog } from '../auth/index.js';
import {
  endImpersonation,
  getSecurity,
  impersonate,
  listBankAccounts,
  setGrant,
  sharedMailboxes,
  updateUserInfo,
  type SecurityDeps,
} from './security.service.js';
import { sendPasswordCode, setMailboxPassword } from './password-codes.service.js';

const tags = ['security'];

/**
 * Grants and revocations of one kind an account may make an hour (each route its own count): far more than a member
 * sharing a mailbox makes, far too few to try member IDs (though a grant no longer tells whether one exists).
 */
export const GRANT_RATE_LIMIT = 30;

/**
 * user/settings/security/… and user/shared-mailboxes (SPEC §2 settings/access and ba, §6, §7). Every security route is
 * the member's own (`ownAccountOnly`): a session held to one address or opened by impersonation gets forbidden.
 */
export const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (log: SecurityDeps['log']): SecurityDeps => ({ ...app.deps, log });
  const { db } = app.deps;

  app.route({
    ...apiRoute(app, 'security', { tags, summary: 'The security section: password, names, grants' }),
    handler: async (request) => getSecurity(db, ownAccountOnly(request.requireAuth())),
  });
  /** The request's deps and the account it may change: the owner's own, in their own session. */
  const owner = (request: FastifyRequest) =>
    [deps(request.log), ownAccountOnly(request.requireAuth())] as const;

  app.route({
    ...apiRoute(app, 'sendPasswordCode', {
      tags,
      summary: "Send a 6-digit code for the mailbox password to the member's wallet application",
    }),
    handler: async (request) => sendPasswordCode(...owner(request), request.body.purpose),
  });

  for (const [name, purpose] of [
    ['newPassword', 'new'],
    ['changePassword', 'change'],
  ] as const) {
    app.route({
      ...apiRoute(app, name, {
        tags,
        summary:
          purpose === 'new'
            ? 'Set the mailbox password of the primary address (with a code)'
            : "Change the mailbox password (with a code); the address's password sessions end",
      }),
      handler: async (request) => setMailboxPassword(...owner(request), purpose, request.body),
    });
  }

  app.route({
    ...apiRoute(app, 'updateUserInfo', { tags, summary: 'First and last name (the display name)' }),
    handler: async (request) => updateUserInfo(...owner(request), request.body),
  });

  app.route({
    ...apiRoute(app, 'authLog', { tags, summary: 'Sign-ins and failed attempts, newest first' }),
    handler: async (request) => listAuthLog(db, ownAccountOnly(request.requireAuth()), request.query),
  });

  const grantRateLimit = {
    max: GRANT_RATE_LIMIT,
    timeWindow: '1 hour',
    keyGenerator: (request: FastifyRequest) =>
      request.principal
        ? `grants:${request.principal.actorAccountId ?? request.principal.accountId}`
        : request.ip,
  };
  for (const [grant, revoke, kind] of [
    ['grantImpersonation', 'revokeImpersonation', 'mailbox'],
    ['grantBaImpersonation', 'revokeBaImpersonation', 'ba'],
  ] as const) {
    const what = kind === 'mailbox' ? 'open this mailbox' : "act for this member's bank accounts";
    app.route({
      ...apiRoute(app, grant, { tags, summary: `Let a member ${what}` }),
      config: { rateLimit: grantRateLimit },
      handler: async (request) => setGrant(...owner(request), kind, request.query.member_id, true),
    });
    app.route({
      ...apiRoute(app, revoke, {
        tags,
        summary: `No longer let a member ${what}${kind === 'mailbox' ? ' (their open sessions end)' : ''}`,
      }),
      config: { rateLimit: grantRateLimit },
      handler: async (request) => setGrant(...owner(request), kind, request.query.member_id, false),
    });
  }

  app.route({
    ...apiRoute(app, 'baList', {
      tags,
      summary: "The member's bank accounts and those of members who granted BA-impersonation",
    }),
    handler: async (request) => listBankAccounts(...owner(request)),
  });

  app.route({
    ...apiRoute(app, 'sharedMailboxes', { tags, summary: 'Mailboxes shared with the signed-in member' }),
    handler: async (request) => sharedMailboxes(db, request.requireAuth()),
  });
};

/** /auth/impersonate and /auth/impersonate/end: switch the session into a shared mailbox and back. */
export const impersonationRoutes: FastifyPluginAsyncZod = async (app) => {
  const rateLimit = { max: app.deps.config.authRateLimit, timeWindow: '1 minute' };
  // The session is checked before the body, so an anonymous request learns nothing about the route's schema.
  app.addHook('onRequest', async (request) => {
    request.requireAuth();
  });
  app.route({
    ...apiRoute(app, 'impersonate', { tags: ['auth'], summary: 'Open a mailbox shared with this member' }),
    config: { rateLimit },
    handler: async (request, reply) =>
      impersonate(
        { ...app.deps, log: request.log },
        { request, reply },
        request.requireAuth(),
        request.body.member_id,
      ),
  });
  app.route({
    ...apiRoute(app, 'endImpersonation', { tags: ['auth'], summary: "Back to one's own mailbox" }),
    config: { rateLimit },
    handler: async (request, reply) =>
      endImpersonation({ ...app.deps, log: request.log }, { request, reply }, request.requireAuth()),
  });
};
