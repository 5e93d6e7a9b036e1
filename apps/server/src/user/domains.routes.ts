import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownAccountOnly } from '../accounts/index.js';
import { AddressPolicy, openDnsResolver } from '../core/net/index.js';
import { apiRoute } from '../http/index.js';
import {
  checkPayment,
  confirmDomain,
  createDomain,
  deleteDomain,
  listDomains,
  listPublicDomains,
  rotateDkim,
  showDomain,
  type DomainRouteDeps,
} from './domains.service.js';

/** settings/domains (SPEC §2, §7): the mailbox owner's alone (an address-only or impersonating session: forbidden). */
export const domainRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, secrets } = app.deps;
  const resolver = openDnsResolver(config.dnsServers);
  const outboundPolicy = new AddressPolicy(config.outboundAllowPrivate);
  const deps = (log: DomainRouteDeps['log']): DomainRouteDeps => ({
    ...app.deps,
    log,
    mailDomain: config.mailDomain,
    mxHost: config.mxHost,
    domains: config.domains,
    resolver,
    outboundPolicy,
    dkimKeySecret: secrets.dkimKeySecret,
  });
  /** The request's deps and the account it may change: the owner's own, in their own session. */
  const owner = (request: FastifyRequest) =>
    [deps(request.log), ownAccountOnly(request.requireAuth())] as const;
  const tags = ['domains'];

  app.route({
    ...apiRoute(app, 'domains', { tags, summary: "The account's own domains, oldest first" }),
    handler: async (request) => listDomains(...owner(request)),
  });

  app.route({
    ...apiRoute(app, 'publicDomains', {
      tags,
      summary: "The service's public domains, on which members take paid addresses",
    }),
    handler: async (request) => {
      ownAccountOnly(request.requireAuth());
      return listPublicDomains(deps(request.log));
    },
  });

  app.route({
    ...apiRoute(app, 'domain', {
      tags,
      summary: 'A domain with its DNS health (found against expected), DKIM keys and a zone snippet',
    }),
    handler: async (request) => showDomain(...owner(request), request.params.id),
  });

  app.route({
    ...apiRoute(app, 'createDomain', {
      tags,
      summary: 'Add a domain (prepared; beyond FREE_DOMAINS unpaid with an invoice)',
    }),
    handler: async (request) => ({
      domain: await createDomain(...owner(request), request.body.name),
    }),
  });

  app.route({
    ...apiRoute(app, 'confirmDomain', {
      tags,
      summary: 'Verify the domain by its TXT record (dns) or the meta tag on its site (meta)',
    }),
    handler: async (request) => confirmDomain(...owner(request), request.params.id, request.body.method),
  });

  app.route({
    ...apiRoute(app, 'checkDomain', { tags, summary: 'Verify again by the method of the last confirm' }),
    handler: async (request) => confirmDomain(...owner(request), request.params.id, undefined),
  });

  app.route({
    ...apiRoute(app, 'checkDomainPayment', {
      tags,
      summary: "'I have already paid' for a paid domain: ask the wallet",
      description: 'Still unpaid: pay_invoice. Rejected, expired or cancelled: pay_invoice_cancel.',
    }),
    handler: async (request) => ({
      domain: await checkPayment(...owner(request), request.params.id),
    }),
  });

  app.route({
    ...apiRoute(app, 'rotateDomainDkim', {
      tags,
      summary: 'Start a DKIM rotation: a new pair published first, signing once its records are seen',
    }),
    handler: async (request) => rotateDkim(...owner(request), request.params.id),
  });

  app.route({
    ...apiRoute(app, 'deleteDomain', {
      tags,
      summary: 'Remove a domain (?confirm=delete): its addresses stop receiving, their mail stays',
    }),
    handler: async (request) => {
      await deleteDomain(...owner(request), request.params.id, request.query.confirm);
      return { ok: true as const };
    },
  });
};
