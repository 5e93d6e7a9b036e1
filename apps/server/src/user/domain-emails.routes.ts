import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownAccountOnly } from '../accounts/index.js';
import { openDnsResolver } from '../core/net/index.js';
import { apiRoute } from '../http/index.js';
import {
  activateDomainEmail,
  addDomainEmail,
  checkPayment,
  removeDomainEmail,
  setCatchAll,
  setDomainEmailAccess,
  type DomainEmailDeps,
} from './domain-emails.service.js';
import { listAllDomainEmails, listDomainEmails } from './domain-email-views.js';
import { delegateDomainEmail, delegatedEmails, openDelegated } from './delegation.service.js';

/**
 * settings/domains/emails/{id}, settings/access and settings/d_emails (SPEC §2, §7): the mailbox owner's alone — a
 * session held to one address, a delegated one or an impersonating one gets forbidden (so a delegate never delegates
 * further); another account's ids are entity_not_found.
 */
export const domainEmailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  const dns = openDnsResolver(config.dnsServers);
  const deps = (log: DomainEmailDeps['log']): DomainEmailDeps => ({
    ...app.deps,
    log,
    dns,
    mxHost: config.mxHost,
    freeDomainEmails: config.domains.freeEmails,
    domainEmailPrice: config.domains.emailPrice,
  });
  /** The request's deps and the account it may change: the owner's own, in their own session. */
  const owner = (request: FastifyRequest) =>
    [deps(request.log), ownAccountOnly(request.requireAuth())] as const;

  app.route({
    ...apiRoute(app, 'allDomainEmails', {
      tags: ['domains'],
      summary: 'Every address of the account on a domain, own or public, each with its domain_id',
    }),
    handler: async (request) => ({
      emails: await listAllDomainEmails(...owner(request)),
    }),
  });

  app.route({
    ...apiRoute(app, 'domainEmails', {
      tags: ['domains'],
      summary:
        'The addresses on a domain (own or public) with status, catch-all, password access and delegate',
    }),
    handler: async (request) => ({
      emails: await listDomainEmails(...owner(request), request.params.id),
    }),
  });

  app.route({
    ...apiRoute(app, 'createDomainEmail', {
      tags: ['domains'],
      summary: 'Create an address on a verified own domain (prepared) or a public one (paid: unpaid)',
    }),
    handler: async (request) => ({
      email: await addDomainEmail(...owner(request), request.params.id, request.body),
    }),
  });

  app.route({
    ...apiRoute(app, 'updateDomainEmail', {
      tags: ['domains'],
      summary: "Make the address the domain's catch-all, or stop it being that",
    }),
    handler: async (request) => ({
      email: await setCatchAll(
        ...owner(request),
        request.params.id,
        request.params.emailId,
        request.body.catch_all,
      ),
    }),
  });

  app.route({
    ...apiRoute(app, 'delegateDomainEmail', {
      tags: ['domains'],
      summary: 'Delegate the address to a member, or take the delegation back (member_id: null)',
    }),
    handler: async (request) => ({
      email: await delegateDomainEmail(
        ...owner(request),
        request.params.id,
        request.params.emailId,
        request.body.member_id,
      ),
    }),
  });

  app.route({
    ...apiRoute(app, 'deleteDomainEmail', {
      tags: ['domains'],
      summary: 'Remove the address: refused at RCPT from now on, its mail kept, its sessions ended',
    }),
    handler: async (request) => {
      await removeDomainEmail(...owner(request), request.params.id, request.params.emailId);
      return { ok: true as const };
    },
  });

  app.route({
    ...apiRoute(app, 'confirmDomainEmail', {
      tags: ['domains'],
      summary: "Activate a prepared address once the domain's MX points at the service",
    }),
    handler: async (request) => ({
      email: await activateDomainEmail(...owner(request), request.params.emailId),
    }),
  });

  app.route({
    ...apiRoute(app, 'checkDomainEmailPayment', {
      tags: ['domains'],
      summary: "'I have already paid' for a paid address: ask the wallet",
    }),
    handler: async (request) => ({
      email: await checkPayment(...owner(request), request.params.id, request.params.emailId),
    }),
  });

  app.route({
    ...apiRoute(app, 'domainEmailAccess', {
      tags: ['domains'],
      summary: 'Set (twice, equal) or remove (password: null) password access to the address',
    }),
    handler: async (request) => ({
      email: await setDomainEmailAccess(
        ...owner(request),
        request.params.id,
        request.params.emailId,
        request.body,
      ),
    }),
  });

  app.route({
    ...apiRoute(app, 'delegatedEmails', {
      tags: ['domains'],
      summary: 'The addresses other members delegated to this one (settings/d_emails)',
    }),
    handler: async (request) => delegatedEmails(deps(request.log), request.requireAuth()),
  });
};

/** POST /auth/delegated: open an address delegated to this member (POST /auth/impersonate/end comes back). */
export const delegatedSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, events, config } = app.deps;
  const rateLimit = { max: config.authRateLimit, timeWindow: '1 minute' };
  app.addHook('onRequest', async (request) => {
    request.requireAuth();
  });
  app.route({
    ...apiRoute(app, 'openDelegated', {
      tags: ['auth'],
      summary: 'Open an address delegated to this member (held to that address)',
    }),
    config: { rateLimit },
    handler: async (request, reply) =>
      openDelegated(
        { db, events, config, log: request.log },
        { request, reply },
        request.requireAuth(),
        request.body.email,
      ),
  });
};
