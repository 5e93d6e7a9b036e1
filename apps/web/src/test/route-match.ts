import { routePaths, type RouteName } from '@mailroom/protocol';

/** A request of the app read against the route table: the route by name, its path parameters and its query. */
export interface RouteRequest {
  route: RouteName;
  method: string;
  /** The address as the app asked for it (path and query). */
  url: string;
  params: Record<string, string>;
  query: Record<string, string>;
}

const table = (Object.keys(routePaths) as RouteName[]).map((name) => {
  const { method, path } = routePaths[name];
  const names: string[] = [];
  const pattern = new RegExp(
    '^' +
      path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_]\w*)/g, (_m, param: string) => {
        names.push(param);
        return '([^/]+)';
      }) +
      '$',
  );
  // A route with fewer parameters wins a tie (messages/draft/:uid before messages/:folder_id/:uid).
  return { name, method, pattern, names, literal: path.split('/').filter((s) => !s.startsWith(':')).length };
});
table.sort((a, b) => b.literal - a.literal);

/** The route of the table that `method url` is, with its parameters and query; null for an address outside it. */
export function matchRoute(method: string, url: string): RouteRequest | null {
  const parsed = new URL(url, 'https://mail.example.test');
  for (const route of table) {
    if (route.method !== method) continue;
    const found = route.pattern.exec(parsed.pathname);
    if (!found) continue;
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(found[i + 1]!)]));
    return { route: route.name, method, url, params, query: Object.fromEntries(parsed.searchParams) };
  }
  return null;
}
