import { apiRoutes, type ApiRouteName, type ApiRouteTable } from '@mailroom/protocol';
import type { FastifySchema } from 'fastify';

type Entry<K extends ApiRouteName> = ApiRouteTable[K];
type Pick2<E, From extends string, To extends string> = E extends { [P in From]: infer S }
  ? { [P in To]: S }
  : object;

/** The Fastify schema of a table entry: params, querystring, body, and the 200 response. */
export type TableSchema<K extends ApiRouteName> = Pick2<Entry<K>, 'params', 'params'> &
  Pick2<Entry<K>, 'query', 'querystring'> &
  Pick2<Entry<K>, 'body', 'body'> &
  (Entry<K> extends { response: infer R } ? { response: { 200: R } } : object);

/** What the API documentation adds to a route (OpenAPI tags, summary, description, hidden). */
export type RouteDocs = Pick<
  FastifySchema,
  'tags' | 'summary' | 'description' | 'hide' | 'consumes' | 'security'
>;

/**
 * A route of the protocol's route table as Fastify registers it: its method, its path below the
 * plugin's prefix (`/api/v1`, `/auth`) and its schemas, so a path and its schemas are written once,
 * in packages/protocol, for the server and the web client alike.
 */
export function apiRoute<K extends ApiRouteName>(
  app: { prefix: string },
  name: K,
  docs: RouteDocs = {},
): { method: Entry<K>['method']; url: string; schema: TableSchema<K> & RouteDocs } {
  // Read through a plain shape: TypeScript cannot spread the whole table's union here (TS2590).
  const entry = apiRoutes[name] as unknown as {
    method: Entry<K>['method'];
    path: string;
    params?: unknown;
    query?: unknown;
    body?: unknown;
    response?: unknown;
  };
  if (!entry.path.startsWith(`${app.prefix}/`))
    throw new Error(`route ${name} (${entry.path}) is not below the prefix ${app.prefix}`);
  const schema: Record<string, unknown> = { ...docs };
  if (entry.params) schema.params = entry.params;
  if (entry.query) schema.querystring = entry.query;
  if (entry.body) schema.body = entry.body;
  if (entry.response) schema.response = { 200: entry.response };
  return {
    method: entry.method,
    url: entry.path.slice(app.prefix.length),
    schema: schema as unknown as TableSchema<K> & RouteDocs,
  };
}

/**
 * Holds the server to the route table: every API route it registers under `prefixes` is one of
 * the table's, and every route of the table is registered, or the app refuses to start (so a test
 * that builds the app fails on a path written twice or a route left out).
 */
export function checkRouteTable(
  app: {
    addHook(name: 'onRoute', hook: (route: { method: string | string[]; url: string }) => void): unknown;
    addHook(name: 'onReady', hook: () => Promise<void>): unknown;
  },
  prefixes: string[],
  exempt: string[] = [],
): void {
  const registered = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!prefixes.some((p) => route.url.startsWith(`${p}/`)) || exempt.includes(route.url)) return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD') registered.add(`${method} ${route.url}`);
  });
  app.addHook('onReady', async () => {
    const table = new Set(Object.values(apiRoutes).map((r) => `${r.method} ${r.path}`));
    const extra = [...registered].filter((r) => !table.has(r));
    const missing = [...table].filter((r) => !registered.has(r));
    if (extra.length || missing.length)
      throw new Error(
        `the routes differ from the protocol's route table: not in the table ${extra.join(', ') || 'none'}; ` +
          `not registered ${missing.join(', ') || 'none'}`,
      );
  });
}
