import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../../', import.meta.url).pathname;
const child = path.join(root, 'apps/server/test/_idle-collection-child.ts');
const MB = 1024 * 1024;

function run(nodeArgs: string[], args: string[] = []) {
  const out = execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', child, ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as {
    collections: { before: number; after: number }[];
    before: number;
    after: number;
    rounds: { before: number; after: number; collected: boolean }[];
  };
}

describe('idle collection', () => {
  it('a process that made garbage and went quiet collects it once, and its heap holds what is live', () => {
    const { collections, before, after } = run(['--expose-gc']);
    expect(collections).toHaveLength(1);
    expect(collections[0]!.after).toBeLessThan(collections[0]!.before - 20 * MB);
    expect(after).toBeLessThan(before - 20 * MB);
  });

  it('does nothing without gc exposed (--expose-gc, which the serve script sets)', () => {
    expect(run([]).collections).toEqual([]);
  });

  it('a busy run of work that calls collectGarbageIfGrown between its steps has its garbage collected as it goes', () => {
    const { rounds } = run(['--expose-gc'], ['busy']);
    const collected = rounds.filter((r) => r.collected);
    expect(collected.length).toBeGreaterThan(0);
    for (const r of collected) expect(r.after).toBeLessThan(r.before - 20 * MB);
    expect(run([], ['busy']).rounds.map((r) => r.collected)).toEqual([false, false, false]);
  });
});
