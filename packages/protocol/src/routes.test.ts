import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRoutes, routePaths, routes, type RouteName, type RouteSchemas } from './routes.js';
import { COLUMN_KEY, INT4_MAX } from './schemas/common.js';

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

/** Every integer a request can carry, with where it is; from the JSON Schema of the route's params, query and body. */
function requestIntegers(): { where: string; schema: Record<string, unknown> }[] {
  const found: { where: string; schema: Record<string, unknown> }[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${where}[${i}]`));
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record.type === 'integer') found.push({ where, schema: record });
      for (const [key, value] of Object.entries(record)) walk(value, `${where}.${key}`);
    }
  };
  for (const [name, route] of Object.entries(apiRoutes)) {
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = (route as RouteSchemas)[part];
      if (schema) walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), `${name}.${part}`);
    }
  }
  return found;
}

describe('integers in requests', () => {
  it('every integer a request carries is bounded by the column it reaches: int4, or a bigint row id', () => {
    const integers = requestIntegers();
    expect(integers.length).toBeGreaterThan(20);
    const unbounded = integers
      .filter(({ schema }) => {
        const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
        return schema[COLUMN_KEY] === 'bigint' ? max > Number.MAX_SAFE_INTEGER : max > INT4_MAX;
      })
      .map(({ where }) => where);
    expect(unbounded).toEqual([]);
  });
});
