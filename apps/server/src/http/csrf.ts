import fp from 'fastify-plugin';
import { DomainError } from '../core/errors.js';

export const CSRF_HEADER = 'x-mailroom-csrf';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every state-changing API or auth request must carry the custom header, which a cross-site
 * page cannot add without a CORS preflight we never grant, and, when the browser sends an
 * Origin, it must be ours. SameSite alone does not hold once the app is framed with
 * SameSite=None cookies.
 */
export const csrfPlugin = fp<{ publicOrigin: string }>(async (app, opts) => {
  app.addHook('onRequest', async (request) => {
    if (safeMethods.has(request.method) || !/^\/(api|auth)\//.test(request.url)) return;
    // A server-to-server notice admitted by its own signature (the wallet webhook), never a browser's request.
    if (request.routeOptions.config.signedWebhook) return;
    const origin = request.headers.origin;
    const sameOrigin =
      !origin || origin === opts.publicOrigin || origin === `${request.protocol}://${request.host}`;
    if (!request.headers[CSRF_HEADER] || !sameOrigin) throw new DomainError('csrf_failed');
  });
});
