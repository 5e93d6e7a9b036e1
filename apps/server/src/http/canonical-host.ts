import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';

/** Paths the web app never owns (app.ts serves them); the sign-in start is the one among them sent on too. */
const serverPaths = /^\/(api|auth|oidc|idp|ws|metrics|healthz|assets)(\/|$|\?)/;
const signInStart = /^\/auth\/wm\/login(\?|$)/;

/** Set on the other host before sending the browser on; seen again there, the Host header cannot be trusted. */
const GUARD_COOKIE = 'mr_host_redirect';
const GUARD_MAX_AGE_S = 30;

/**
 * Sends a browser that opened the app on another host than PUBLIC_URL's (http://127.0.0.1:8080 for
 * http://localhost:8080) to PUBLIC_URL before any sign-in starts: cookies belong to one host, and the sign-in's
 * callback comes back to PUBLIC_URL, so a flow started elsewhere could never finish.
 *
 * A reverse proxy that rewrites the Host header (and sends no X-Forwarded-Host with TRUST_PROXY) would make every
 * request look like another host: the guard cookie, set with the redirect, comes back to the same host at once
 * then, and the request is served as it is (with a warning in the log) instead of redirected round in a loop.
 */
export const canonicalHostPlugin = fp<{ publicUrl: string }>(async (app, opts) => {
  const publicUrl = new URL(opts.publicUrl);
  let warned = false;

  const hostOf = (request: FastifyRequest): string | undefined => {
    try {
      return new URL(`${publicUrl.protocol}//${request.host}`).host;
    } catch {
      return undefined;
    }
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (serverPaths.test(request.url) && !signInStart.test(request.url)) return;
    const host = hostOf(request);
    if (!host || host === publicUrl.host) return;
    if (request.cookies[GUARD_COOKIE]) {
      if (!warned) {
        warned = true;
        request.log.warn(
          { host, publicUrl: publicUrl.origin },
          'requests arrive for another host than PUBLIC_URL even after a redirect to it: check PUBLIC_URL, and that the reverse proxy passes the Host header on (or X-Forwarded-Host with TRUST_PROXY)',
        );
      }
      return;
    }
    reply.setCookie(GUARD_COOKIE, '1', {
      path: '/',
      maxAge: GUARD_MAX_AGE_S,
      httpOnly: true,
      sameSite: 'lax',
    });
    return reply.redirect(`${publicUrl.origin}${request.url}`, 302);
  });
});
