import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import { DomainError } from '../core/errors.js';

/**
 * Whether a parsed request value holds a NUL character anywhere (strings, keys, nested values). What parsers make
 * is walked (objects, whatever their prototype: the query parser's has none of Object's; arrays), not bytes nor a
 * body a route takes as a stream (an import file's part): a stream is an object graph reaching the socket and the
 * server, and walking it spun the process for good.
 */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value) || value instanceof EventEmitter) return false;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000') || holdsNul(inner, depth + 1)) return true;
  }
  return false;
}

/**
 * PostgreSQL text cannot hold NUL, and no field of ours has a use for one: a request carrying one in its
 * path, query or JSON body is refused as invalid before any schema or handler sees it (it used to reach
 * the database and answer 500). A route whose own checks give a more precise answer (compose names the
 * header fields with a control character) says so with `config.checksNul`.
 */
export const noNulPlugin = fp(async (app) => {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.checksNul) return;
    if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body))
      throw new DomainError('invalid_request_params');
  });
});
