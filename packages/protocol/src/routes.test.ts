import { describe, expect, it } from 'vitest';
import { routePaths, routes, type RouteName } from './routes.js';

describe('the route table', () => {
  it('has schemas for exactly the routes of routePaths, with the same method and path', () => {
    expect(Object.keys(routes).sort()).toEqual(Object.keys(routePaths).sort());
    for (const name of Object.keys(routePaths) as RouteName[]) {
      expect(routes[name].method).toBe(routePaths[name].method);
      expect(routes[name].path).toBe(routePaths[name].path);
    }
  });

  it('names every route by its full path under /api/v1 or /auth, with a params schema for each :param', () => {
    for (const route of Object.values(routes)) {
      expect(route.path).toMatch(/^\/(api\/v1|auth)\//);
      const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      const schema = 'params' in route ? route.params : undefined;
      if (names.length === 0) expect(schema).toBeUndefined();
      else expect(Object.keys(schema!.shape).sort()).toEqual(names.sort());
    }
  });

  it('tells routes apart by method and path', () => {
    const keys = Object.values(routePaths).map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
