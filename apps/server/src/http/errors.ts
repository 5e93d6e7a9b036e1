import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, errorStatus, isErrorCode, type ApiErrorBody, type ErrorCode } from '@mailroom/protocol';
import { DomainError } from '../core/errors.js';

export interface ApiError {
  status: number;
  body: ApiErrorBody;
}

/** The one step every thrown value passes through on its way to the client. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof DomainError) {
    return { status: errorStatus(err.code), body: errorBody(err.code, err.userMessage) };
  }
  const e = err as { statusCode?: number; code?: string; validation?: { message?: string }[] } | null;
  if (e && typeof e === 'object') {
    // A schema may name the catalogue code its failure means (a folder id in a path, say).
    const named = e.validation?.[0]?.message;
    if (typeof named === 'string' && isErrorCode(named)) return apiError(named);
    if (
      e.validation ||
      e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
      e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
    ) {
      return apiError('invalid_request_params');
    }
    if (e.statusCode === 400 && /JSON|body|content/i.test(String(e.code)))
      return apiError('invalid_request_params');
    if (e.statusCode === 413 || e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return apiError('request_entity_too_large');
    if (e.statusCode === 429) return apiError('too_many_requests');
    if (e.statusCode === 404) return apiError('not_found');
    if (e.statusCode === 415) return apiError('invalid_request_params');
    if (typeof e.code === 'string' && isErrorCode(e.code)) return apiError(e.code);
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) return apiError('invalid_request_params');
  }
  return apiError('internal_error');
}

function apiError(code: ErrorCode): ApiError {
  return { status: errorStatus(code), body: errorBody(code) };
}

/**
 * What Fastify's router refuses before any route runs (a broken escape, a path parameter longer than the router
 * keeps): the same catalogue answer as any other bad request, not the framework's own body.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = toApiError(err);
  request.log.info({ code: body.error.meta.i8s, err: err.message }, 'request refused');
  reply.status(status).header('cache-control', 'no-store').send(body);
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers or a request line over the size limit, a
 * line that is not HTTP): a catalogue 400, then the connection closes, since the parser cannot go on from there.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const body = JSON.stringify(errorBody('invalid_request_params'));
    socket.write(
      `HTTP/1.1 ${errorStatus('invalid_request_params')} Bad Request\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
