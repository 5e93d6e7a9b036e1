import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { ESLint } from 'eslint';

const require = createRequire(import.meta.url);
const config = require('../../dependency-cruiser.cjs') as {
  options: Record<string, unknown>;
  layers: {
    areas: Record<string, { paths: string[]; may: string[] | '*' }>;
    rulesFor(root: string): unknown[];
  };
};
const { areas, rulesFor } = config.layers;

async function violations(baseDir: string, root: string): Promise<string[]> {
  const result = await cruise([root], {
    ...config.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: rulesFor(root) },
  } as never);
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

async function fixture(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-layers-'));
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return dir;
}

describe('the server layer rules (npm run lint)', () => {
  it('declare a direction without cycles: no area may reach itself through the areas it may import', () => {
    const reaches = (from: string, seen = new Set<string>()): Set<string> => {
      const may = areas[from]!.may;
      for (const next of may === '*' ? [] : may) {
        if (seen.has(next)) continue;
        seen.add(next);
        reaches(next, seen);
      }
      return seen;
    };
    for (const name of Object.keys(areas)) expect(reaches(name).has(name), name).toBe(false);
  });

  it('refuse a deep import, an import against the direction and a cycle', async () => {
    const dir = await fixture({
      'src/mailbox/index.ts': "export { store } from './store.js';\n",
      'src/mailbox/store.ts': 'export const store = 1;\n',
      'src/mail/index.ts': "export { a } from './a.js';\n",
      // A feature reaching past the mailbox's index.
      'src/mail/a.ts':
        "import { store } from '../mailbox/store.js';\nimport { b } from './b.js';\nexport const a = store + b;\n",
      // A cycle inside one area.
      'src/mail/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      // The store importing a feature: against the direction.
      'src/mailbox/upward.ts': "import { a } from '../mail/index.js';\nexport const up = a;\n",
      // A migration importing live code.
      'src/core/db/migrations/001-x.ts':
        "import { store } from '../../../mailbox/index.js';\nexport const m = store;\n",
    });
    const found = await violations(dir, 'src');
    expect(found).toContain('entry-mailbox: src/mail/a.ts -> src/mailbox/store.ts');
    expect(found).toContain('layers-mailbox: src/mailbox/upward.ts -> src/mail/index.ts');
    expect(found.some((v) => v.startsWith('no-cycle: src/mail/'))).toBe(true);
    expect(found).toContain('frozen-migrations: src/core/db/migrations/001-x.ts -> src/mailbox/index.ts');
    await fs.rm(dir, { recursive: true });
  });

  it('pass on the server as it is', async () => {
    expect(await violations(path.resolve(import.meta.dirname, '../../../..'), 'apps/server/src')).toEqual([]);
  });

  it("refuse the store's lock and move primitives outside mailbox/ (eslint)", async () => {
    const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../../../..') });
    const lint = async (file: string, code: string) =>
      (await eslint.lintText(code, { filePath: file }))[0]!.messages.map((m) => m.ruleId);
    const use = (names: string, from: string) =>
      `import { ${names} } from '${from}';\nexport const a = [${names}];\n`;
    expect(
      await lint('apps/server/src/mail/x.ts', use('lockFolders, markMessages', '../mailbox/index.js')),
    ).toEqual(['no-restricted-imports']);
    expect(await lint('apps/server/test/x.test.ts', use('purgeLocked', '../src/mailbox/purge.js'))).toEqual([
      'no-restricted-imports',
    ]);
    expect(await lint('apps/server/src/mail/x.ts', use('markMessages', '../mailbox/index.js'))).toEqual([]);
    expect(await lint('apps/server/src/mailbox/x.ts', use('purgeLocked', './purge.js'))).toEqual([]);
  });

  it('refuse publishing in a route file, and the primitives there too (eslint)', async () => {
    const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../../../..') });
    const lint = async (file: string, code: string) =>
      (await eslint.lintText(code, { filePath: file }))[0]!.messages.map((m) => m.ruleId);
    const use = (names: string, from: string) =>
      `import { ${names} } from '${from}';\nexport const a = [${names}];\n`;
    const route = 'apps/server/src/mail/x.routes.ts';
    expect(await lint(route, use('emit', '../core/events/index.js'))).toEqual(['no-restricted-imports']);
    expect(await lint(route, use('lockFolders', '../mailbox/index.js'))).toEqual(['no-restricted-imports']);
    expect(await lint('apps/server/src/mail/x.service.ts', use('emit', '../core/events/index.js'))).toEqual(
      [],
    );
  });
});
