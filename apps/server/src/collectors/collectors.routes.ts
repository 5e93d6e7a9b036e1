import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownerOnly } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { AddressPolicy, openDnsResolver } from '../core/net/index.js';
import { apiRoute } from '../http/index.js';
import {
  createCollector,
  deleteCollector,
  discoverImap,
  listCollectors,
  updateCollector,
  type CollectorsDeps,
} from './collectors.service.js';

const tags = ['collectors'];

/**
 * Settings › Collectors (SPEC §2, §7): the owner's alone, like the other settings (ownerOnly: a session held to one
 * address is refused). Another account's collector id is collector_not_found.
 */
export const collectorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db, events, secrets } = app.deps;
  const deps: CollectorsDeps = {
    db,
    events,
    log: app.log.child({ area: 'collectors' }),
    dns: openDnsResolver(config.dnsServers),
    policy: new AddressPolicy(config.outboundAllowPrivate),
    passwordSecret: secrets.collectorPasswordSecret,
    maxCollectors: config.collectors.max,
  };
  // Each of these reaches out to other hosts, and create and a new password try a password on someone's server: held
  // to the sign-in routes' pace, so the service is no scanner nor a relay for guessing others' passwords.
  const rateLimit = { max: config.authRateLimit, timeWindow: '1 minute' };

  app.route({
    ...apiRoute(app, 'findImap', {
      tags,
      summary: 'Find the IMAP server of an address',
      description:
        'The bundled provider table, the MX host’s provider, RFC 6186 SRV records, the autoconfig document, then ' +
        'probed guesses (imap.<domain>, mail.<domain>). mail_server_not_found when nothing answers.',
    }),
    config: { rateLimit },
    handler: async (request) => {
      ownerOnly(request.requireAuth());
      return discoverImap(deps, request.body.email);
    },
  });

  app.route({
    ...apiRoute(app, 'collectors', { tags, summary: "The account's collectors (never their passwords)" }),
    handler: async (request) => ({
      collectors: await listCollectors(deps, ownerOnly(request.requireAuth())),
    }),
  });

  app.route({
    ...apiRoute(app, 'createCollector', {
      tags,
      summary: 'Add a collector after signing in to its server with the password',
      description:
        'Without host the server is discovered as find_imap does. The password is sealed at rest and never returned.',
    }),
    config: { rateLimit },
    handler: async (request) => {
      const principal = request.requireAuth();
      // A collector brings mail in on the owner's behalf for as long as it lives: only the owner sets one up, never a
      // session opened by impersonation, whose grant may end before the collector does (issue 28).
      if (principal.actorAccountId) throw new DomainError('forwarding_owner_only');
      return { collector: await createCollector(deps, ownerOnly(principal), request.body) };
    },
  });

  app.route({
    ...apiRoute(app, 'updateCollector', {
      tags,
      summary: 'Enable or disable a collector, give it a new password (checked by signing in), apply_filters',
    }),
    config: { rateLimit },
    handler: async (request) => ({
      collector: await updateCollector(
        deps,
        ownerOnly(request.requireAuth()),
        request.params.id,
        request.body,
      ),
    }),
  });

  app.route({
    ...apiRoute(app, 'deleteCollector', {
      tags,
      summary: 'Delete a collector, keeping its imported folders and mail (keep_mail=true) or removing them',
    }),
    handler: async (request) => {
      const accountId = ownerOnly(request.requireAuth());
      await deleteCollector(deps, accountId, request.params.id, request.query.keep_mail === 'true');
      return { ok: true as const };
    },
  });
};
