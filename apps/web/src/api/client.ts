import { serverClock } from './server-clock';
import { takeFirstScreenAnswer } from '../lib/first-screen';
import {
  SERVER_CLOCK_HEADER,
  routePaths,
  routeUrl,
  withQuery,
  type ApiErrorBody,
  type HttpMethod,
  type RouteBody,
  type RouteName,
  type RouteNameOf,
  type RoutePath,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@mailroom/protocol';

export { routePaths as routes };

/** A failed request: `status` is the HTTP status (meta.code), `code` the catalogue code (meta.i8s). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | null;

  constructor(status: number, message: string, code: string | null = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The server could not be reached at all (down, or the network is): no answer to read. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(cause: unknown) {
    super('The server cannot be reached', { cause });
  }
}

export type QueryValues = Record<string, unknown>;

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  query?: QueryValues;
  signal?: AbortSignal;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'message' in error;
}

async function toApiError(response: Response): Promise<ApiError> {
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    // Proxies answer 413 or 502 with HTML; the status alone still drives the message.
  }
  if (isErrorBody(parsed)) {
    const { message, meta } = parsed.error;
    return new ApiError(meta?.code ?? response.status, message, meta?.i8s ?? null);
  }
  return new ApiError(response.status, response.statusText);
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const url = withQuery(path, options.query);
  if (method === 'GET') {
    // The server wrote this answer into index.html (the first screen of a signed-in browser): taken once.
    const written = takeFirstScreenAnswer(url);
    if (written) {
      if (written.clock > 0) serverClock.noteAnswer(written.clock);
      return written.body as T;
    }
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  // The server refuses state-changing requests without this header: a cross-site form cannot set it.
  if (method !== 'GET') headers['X-Mailroom-Csrf'] = '1';
  let body: string | Blob | undefined;
  if (options.body instanceof Blob) {
    // A file sent as it is (an import): the server reads its kind and charset from its bytes, not from a type the
    // browser guessed from its name.
    headers['Content-Type'] = 'application/octet-stream';
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(url, {
    method,
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  }).catch((error: unknown) => {
    // fetch rejects with a TypeError when no answer came; an abort stays what it is (a canceled request).
    throw error instanceof TypeError ? new NetworkError(error) : error;
  });
  const clock = Number(response.headers.get(SERVER_CLOCK_HEADER));
  if (clock > 0) serverClock.noteAnswer(clock);
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The bytes at an address of the route table (an attachment), GET with the session; a failure is an ApiError. */
export async function fetchBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const response = await fetch(path, { credentials: 'same-origin', signal });
  if (!response.ok) throw await toApiError(response);
  return response.blob();
}

/** The low-level transport under `call`; features call routes of the table, never a path of their own. */
export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'DELETE' }),
};

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

type NameOf<R extends RoutePath> = RouteNameOf<R> & RouteName;
type ParamsInput<K extends RouteName> = keyof RouteParams<K> extends never
  ? { params?: never }
  : { params: RouteParams<K> };
type QueryInput<K extends RouteName> =
  RouteQuery<K> extends undefined ? { query?: never } : { query?: RouteQuery<K> };
type BodyInput<K extends RouteName> =
  RouteBody<K> extends undefined ? { body?: never } : { body: RouteBody<K> };

/** What `call` and `routeUrl` take for a route: its path parameters, query and body, typed from the route table. */
export type CallInput<K extends RouteName> = ParamsInput<K> &
  QueryInput<K> &
  BodyInput<K> & { signal?: AbortSignal };
type CallArgs<K extends RouteName> =
  object extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

// The address of a route (path parameters percent-encoded, undefined query values left out) comes from protocol,
// where the server builds the links it writes with the same function.
export { routeUrl };

/**
 * Calls a route of the protocol's table (`routes.markMessages`…): builds the address from the table, sends the body
 * as JSON, and answers what the route's response schema describes; a failure is an ApiError (SPEC §8).
 */
export function call<R extends RoutePath>(
  route: R,
  ...[input]: CallArgs<NameOf<R>>
): Promise<RouteResponse<NameOf<R>>> {
  const { body, signal } = (input ?? {}) as { body?: unknown; signal?: AbortSignal };
  return request<RouteResponse<NameOf<R>>>(routeUrl(route, input as Parameters<typeof routeUrl>[1]), {
    method: route.method,
    body,
    signal,
  });
}
