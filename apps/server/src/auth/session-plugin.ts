import fp from 'fastify-plugin';
import type { Principal } from '../accounts/index.js';
import { findSession, SESSION_COOKIE } from './sessions.js';
import { DomainError } from '../core/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The signed-in principal, or a 401 expected_token. */
    requireAuth(): Principal;
  }
}

/** Resolves the session cookie to a principal on every API and auth request (and the sandbox wallet's page). */
export const sessionPlugin = fp(async (app) => {
  app.decorateRequest('principal', null);
  app.decorateRequest('requireAuth', function (this: { principal: Principal | null }) {
    if (!this.principal) throw new DomainError('expected_token');
    return this.principal;
  });
  app.addHook('onRequest', async (request) => {
    // The query may follow the path at once (/ws?since=…).
    if (!/^\/(api|auth|ws|sandbox)([/?]|$)/.test(request.url)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.principal = (await findSession(app.deps.db, token)) ?? null;
  });
});
