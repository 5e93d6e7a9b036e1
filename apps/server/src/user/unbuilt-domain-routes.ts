import type { FastifyInstance } from 'fastify';
import { apiRoutes, type ApiRouteName } from '@mailroom/protocol';
import { DomainError } from '../core/errors.js';

/**
 * The routes of issue 17 built in parallel with the domains themselves (addresses on domains, delegation, opening a
 * delegated address): until they are registered, each answers not_found so the server starts and keeps to its route
 * table. Registered last; a route someone registered is left alone, so this does nothing once they all are, and
 * then goes.
 */
const unbuilt: ApiRouteName[] = [
  'domainEmails',
  'createDomainEmail',
  'updateDomainEmail',
  'delegateDomainEmail',
  'deleteDomainEmail',
  'confirmDomainEmail',
  'checkDomainEmailPayment',
  'domainEmailAccess',
  'delegatedEmails',
  'openDelegated',
];

export function registerUnbuiltDomainRoutes(app: FastifyInstance): void {
  for (const name of unbuilt) {
    const route = apiRoutes[name] as { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string } | undefined;
    if (!route || app.hasRoute({ method: route.method, url: route.path })) continue;
    app.route({
      method: route.method,
      url: route.path,
      schema: { hide: true },
      handler: async () => {
        throw new DomainError('entity_not_found');
      },
    });
  }
}
