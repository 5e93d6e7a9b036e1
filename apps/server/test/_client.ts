import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  apiRoutes,
  routeUrl,
  type ApiRouteName,
  type ApiRouteTable,
  type PathParamNames,
} from '@mailroom/protocol';
import type { z } from 'zod';
import type { Browser } from './_util.js';

/**
 * The tests' client of the API: a route by its name in the route table (@mailroom/protocol's `apiRoutes`), never a
 * URL typed by hand, so a test follows a route that moves and a typo in a path is a type error.
 */

/**
 * The OpenAPI document the server serves beside its routes: a document, not a route of the table, so its one
 * address is here.
 */
export const OPENAPI_PATH = '/api/v1/openapi.json';

type ParamNames<K extends ApiRouteName> = PathParamNames<ApiRouteTable[K]['path']>;

/** Path parameters (required when the path has any), query and the rest of one request to route K. */
export type ApiInput<K extends ApiRouteName> = ([ParamNames<K>] extends [never]
  ? { params?: never }
  : { params: Record<ParamNames<K>, string | number> }) & {
  /** Query values; undefined ones are left out (as the web client does). */
  query?: Record<string, unknown>;
  /**
   * The JSON body. Not typed from the route's schema on purpose: tests send what the schema refuses too.
   */
  body?: unknown;
  /** A form body (application/x-www-form-urlencoded) instead of JSON. */
  form?: Record<string, string>;
  /** A raw body sent as it is, with the content-type given in `headers`. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** false: leave out the CSRF header a browser-like client sends on a non-GET request. */
  csrf?: boolean;
  /** The client's address as the server sees it. */
  remoteAddress?: string;
};
type Args<K extends ApiRouteName> = [ParamNames<K>] extends [never]
  ? [input?: ApiInput<K>]
  : [input: ApiInput<K>];

/** The address of route K (path parameters percent-encoded, query appended): for fetch, links and redirects. */
export function apiPath<K extends ApiRouteName>(name: K, ...[input]: Args<K>): string {
  const { params, query } = (input ?? {}) as { params?: Record<string, string | number>; query?: unknown };
  return routeUrl(apiRoutes[name], { params, query });
}

/** One request to route K, answered as inject answers it (status, headers, raw body): for what is not JSON. */
export function apiRequest<K extends ApiRouteName>(
  client: Browser,
  name: K,
  ...[input]: Args<K>
): Promise<LightMyRequestResponse> {
  const options = (input ?? {}) as ApiInput<ApiRouteName>;
  return client.request(apiRoutes[name].method, apiPath(name, ...([input] as Args<K>)), {
    json: options.body,
    form: options.form,
    body: options.raw,
    headers: options.headers,
    csrf: options.csrf,
    remoteAddress: options.remoteAddress,
  });
}

/** The catalogue code of an error answer (error.meta.i8s), undefined when the body is not one. */
export function errorCode(body: unknown): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (body as any)?.error?.meta?.i8s;
}

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The catalogue code when the answer is an error (error.meta.i8s); undefined otherwise (toEqual ignores it). */
  code: string | undefined;
}

/** A JSON call to route K: status, parsed body (null when there is none) and the error code if any. */
export async function api<K extends ApiRouteName>(
  client: Browser,
  name: K,
  ...args: Args<K>
): Promise<ApiAnswer> {
  const response = await apiRequest(client, name, ...args);
  const body: unknown = response.body === '' ? null : response.json();
  return { status: response.statusCode, body, code: errorCode(body) };
}

type ResponseOf<K extends ApiRouteName> = ApiRouteTable[K] extends { response: infer S extends z.ZodType }
  ? z.output<S>
  : unknown;

/** A call that must succeed (200): its body, typed by the route's response schema. */
export async function okBody<K extends ApiRouteName>(
  client: Browser,
  name: K,
  ...args: Args<K>
): Promise<ResponseOf<K>> {
  const answer = await api(client, name, ...args);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as ResponseOf<K>;
}

/** One call of a table of calls: a route's name and its input, for a test that runs one check over several routes. */
export type RouteCall = { [K in ApiRouteName]: [K, ...Args<K>] }[ApiRouteName];

/** A call of such a table (api() with the name and input of `call`). */
export function apiCall(client: Browser, [name, input]: RouteCall): Promise<ApiAnswer> {
  return (api as (client: Browser, name: ApiRouteName, input?: unknown) => Promise<ApiAnswer>)(
    client,
    name,
    input,
  );
}
