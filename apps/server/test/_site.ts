import http from 'node:http';
import type net from 'node:net';
import { cleanup } from './_util.js';

/**
 * A loopback web site standing in for domains' sites (the verification meta tag): one HTTP server on 127.0.0.1 that
 * answers by the Host header, as virtual hosts do; which name reaches it is the test's DNS server's business.
 */
export type SiteHandler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export async function startTestSite(address = '127.0.0.1') {
  const hosts = new Map<string, SiteHandler>();
  const seen: { host: string; path: string; userAgent: string }[] = [];
  const server = http.createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    seen.push({ host, path: request.url ?? '', userAgent: String(request.headers['user-agent'] ?? '') });
    const handler = hosts.get(host);
    if (!handler) {
      response.writeHead(404).end('no such site');
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  cleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    seen,
    serve(host: string, handler: SiteHandler) {
      hosts.set(host.toLowerCase(), handler);
    },
    page(host: string, html: string) {
      hosts.set(host.toLowerCase(), (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(html),
      );
    },
  };
}
