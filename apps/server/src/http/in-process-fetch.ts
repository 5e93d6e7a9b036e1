import type { FastifyInstance } from 'fastify';
import type { CustomFetch } from 'openid-client';

/**
 * Lets the relying party talk to the embedded identity provider through Fastify's inject,
 * so discovery and token calls need no network round trip to ourselves (and work in tests
 * before the server listens).
 */
export function inProcessFetch(app: FastifyInstance, publicUrl: string): CustomFetch {
  const host = new URL(publicUrl).host;
  return async (url, options) => {
    const target = new URL(url);
    const headers = Object.fromEntries(new Headers(options.headers as HeadersInit).entries());
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: target.pathname + target.search,
      headers: { ...headers, host },
      ...(options.body !== undefined && options.body !== null ? { payload: options.body.toString() } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const v of Array.isArray(value) ? value : [value])
        if (v !== undefined) responseHeaders.append(name, String(v));
    }
    return new Response(response.rawPayload.length ? new Uint8Array(response.rawPayload) : null, {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };
}
