import type { FastifyReply } from 'fastify';

/** An HTML page the server renders itself (the development IdP's, the sandbox wallet's), never cached. */
export function sendHtml(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);
}
