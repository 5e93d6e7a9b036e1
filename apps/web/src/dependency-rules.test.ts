import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';

interface DependencyMap {
  features: Record<string, string[]>;
  layers: Record<string, string[]>;
  forbiddenRules(
    src: string,
    map?: Pick<DependencyMap, 'features' | 'layers'>,
  ): IFlattenedRuleSet['forbidden'];
  cruiseOptions: Record<string, unknown>;
}

// This file's folder: under jsdom import.meta.url is not a file: URL, but vitest gives import.meta.dirname.
const here = import.meta.dirname;
const require = createRequire(path.join(here, 'dependency-rules.test.ts'));
const map = require('../dependency-map.cjs') as DependencyMap;
// depcruise resolves paths against the working directory: run it from the repository root, as `npm run lint` does.
const root = path.resolve(here, '../../..');

/** The nodes of a graph in an order where every node comes after what it imports, or null if there is a cycle. */
function topologicalOrder(graph: Record<string, readonly string[]>): string[] | null {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: string): boolean => {
    if (state.get(node) === 'done') return true;
    if (state.get(node) === 'visiting') return false;
    state.set(node, 'visiting');
    for (const next of graph[node] ?? []) if (!visit(next)) return false;
    state.set(node, 'done');
    order.push(node);
    return true;
  };
  for (const node of Object.keys(graph)) if (!visit(node)) return null;
  return order;
}

async function violations(paths: string[], src: string, areas?: Pick<DependencyMap, 'features' | 'layers'>) {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(paths, {
      ...map.cruiseOptions,
      validate: true,
      ruleSet: { forbidden: map.forbiddenRules(src, areas) },
    });
    return (result.output as ICruiseResult).summary.violations.map((violation) => ({
      rule: violation.rule.name,
      from: violation.from,
      to: violation.to,
    }));
  } finally {
    process.chdir(cwd);
  }
}

describe('the web area map (apps/web/dependency-map.cjs)', () => {
  it('is acyclic: features and layers each form a DAG that names only known areas', () => {
    expect(topologicalOrder(map.features)).not.toBeNull();
    expect(topologicalOrder(map.layers)).not.toBeNull();
    for (const allowed of Object.values(map.features)) {
      for (const name of allowed) expect(Object.keys(map.features)).toContain(name);
    }
    // The check itself finds a cycle when there is one.
    expect(topologicalOrder({ a: ['b'], b: ['c'], c: ['a'] })).toBeNull();
  });

  it('reports a deep import into another feature, an import against the layers and a module cycle', async () => {
    const fixture = 'apps/web/dependency-fixture/src';
    const found = await violations([fixture], `^${fixture}/`, {
      layers: { ui: [], api: ['ui'] },
      features: { a: [], b: ['a'] },
    });
    expect(found).toContainEqual({
      rule: 'feature-through-index',
      from: `${fixture}/features/b/b.ts`,
      to: `${fixture}/features/a/a.ts`,
    });
    expect(found).toContainEqual({
      rule: 'layer-ui',
      from: `${fixture}/ui/button.ts`,
      to: `${fixture}/api/client.ts`,
    });
    const cycle = found.find((violation) => violation.rule === 'no-circular');
    expect([cycle?.from, cycle?.to].sort()).toEqual([
      `${fixture}/features/a/x.ts`,
      `${fixture}/features/a/y.ts`,
    ]);
    // b importing a through its index is allowed by the map, so nothing else is reported for b.
    expect(found.filter((violation) => violation.from.includes('/features/b/'))).toHaveLength(1);
  });

  it('holds for the real source tree', async () => {
    expect(await violations(['apps/web/src'], '^apps/web/src/')).toEqual([]);
  }, 30_000);
});
