import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;
const child = path.join(root, 'apps/server/test/_idle-collection-child.ts');
const MB = 1024 * 1024;

function run(nodeArgs: string[]) {
  const out = execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', child], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as {
    collections: { before: number; after: number }[];
    before: number;
    after: number;
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
});
