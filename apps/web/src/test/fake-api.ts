import { vi } from 'vitest';
import type { RouteName } from '@mailroom/protocol';
import { answerShell, json, notFound, type ShellData } from './fixtures';
import { matchRoute, type RouteRequest } from './route-match';

/** One request the app made, as the fake API read it: its route by name, path parameters, query and JSON body. */
export interface FakeRequest extends RouteRequest {
  /** The JSON body parsed (a Blob or other body as it was sent); undefined without one. */
  body: unknown;
  /** The request's abort signal, if the app gave one. */
  signal: AbortSignal | null | undefined;
}

/**
 * What a route answers: a Response as it is, anything else as a 200 JSON body; a function is called with the
 * request (and may answer either).
 */
export type FakeAnswer = Response | object | string | number | boolean | null;
export type FakeHandler = (request: FakeRequest) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;
export type FakeRoutes = Partial<Record<RouteName, FakeHandler | FakeAnswer>>;

export interface FakeApiOptions {
  /** The shell's start-up answers (session, account, folders, labels) for the routes `routes` leaves out. */
  shell?: ShellData;
  /** Called first with every request of the table; an answer it gives is the request's (a refusal, say). */
  onRequest?: (request: FakeRequest) => Response | undefined;
  /** What a request no route answers gets (default: 404 not_found). */
  otherwise?: (request: FakeRequest | { route: null; method: string; url: string }) => Response;
}

function bodyOf(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

const shellRoutes = new Set<RouteName>(['access', 'rids', 'account', 'folders', 'labels']);

/**
 * One fake API for the web tests, over the route table: `fakeApi({ folders: { folders }, createFolder: (r) => … })`
 * stubs fetch (setUpScreenTests unstubs it after each test) so each request is answered by its route's handler, by
 * name, never by a URL typed in the test. `calls` keeps every request in order; `callsTo(name)` those of one route.
 */
export function fakeApi(routes: FakeRoutes, options: FakeApiOptions = {}) {
  const calls: FakeRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const matched = matchRoute(method, url);
    if (!matched) return (options.otherwise ?? (() => notFound()))({ route: null, method, url });
    const request: FakeRequest = { ...matched, body: bodyOf(init), signal: init?.signal };
    calls.push(request);
    const first = options.onRequest?.(request);
    if (first) return first;
    const handler = routes[request.route];
    if (handler !== undefined) {
      const answer = typeof handler === 'function' ? await handler(request) : handler;
      if (answer !== undefined) return answer instanceof Response ? answer : json(answer);
    }
    if (options.shell && shellRoutes.has(request.route)) {
      const shell = answerShell(url, options.shell);
      if (shell) return shell;
    }
    return (options.otherwise ?? (() => notFound()))(request);
  });
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    calls,
    /** The requests made to one route, in order. */
    callsTo: (route: RouteName) => calls.filter((c) => c.route === route),
  };
}

/** A request as the tests compare it: its route and body only. */
export const routeAndBody = (request: FakeRequest | undefined) =>
  request && { route: request.route, body: request.body };

/** The mail actions (mark, move, delete, empty, bulk): screens that only need them to succeed answer them alike. */
export const mailActionRoutes = [
  'markMessages',
  'moveMessages',
  'deleteMessages',
  'emptyFolder',
  'bulkAction',
] as const satisfies readonly RouteName[];

/** The same answer for each of `names`, to spread into fakeApi's routes. */
export function answerEach(names: readonly RouteName[], answer: FakeHandler | FakeAnswer): FakeRoutes {
  return Object.fromEntries(names.map((name) => [name, answer]));
}

/** Every route of the contacts and their groups: what a session without contacts must never ask for. */
export const contactRoutes: readonly RouteName[] = [
  'contacts',
  'contact',
  'createContact',
  'updateContact',
  'deleteContact',
  'deleteContacts',
  'importContacts',
  'contactImport',
  'exportContacts',
  'suggestContacts',
  'knownContact',
  'groups',
  'group',
  'createGroup',
  'updateGroup',
  'groupMembers',
  'deleteGroup',
];

/** A request as the tests compare it: route, its path parameters and query when it has any, and body. */
export function sent(request: FakeRequest) {
  return {
    route: request.route,
    ...(Object.keys(request.params).length ? { params: request.params } : {}),
    ...(Object.keys(request.query).length ? { query: request.query } : {}),
    body: request.body,
  };
}
export type Sent = ReturnType<typeof sent>;
