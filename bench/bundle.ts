import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchRow } from './types.js';

const dist = new URL('../apps/web/dist/', import.meta.url).pathname;

/**
 * The mail shell's initial JavaScript: the entry script and every chunk index.html preloads,
 * gzipped (level 9, as a static server would). Needs `npm run build` first.
 */
export async function runBundleBench(): Promise<BenchRow[]> {
  const html = await fs.readFile(path.join(dist, 'index.html'), 'utf8').catch(() => null);
  if (html === null)
    return [
      { name: 'mail shell initial JS (gzip)', value: NaN, unit: 'KB', target: '≤ 120', note: 'not built' },
    ];
  const files = new Set<string>();
  for (const m of html.matchAll(
    /<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/?([^"]+\.js)"/g,
  ))
    files.add(m[1]!);
  let total = 0;
  for (const file of files) total += gzipSync(await fs.readFile(path.join(dist, file)), { level: 9 }).length;
  return [
    {
      name: 'mail shell initial JS (gzip)',
      value: total / 1024,
      unit: 'KB',
      target: '≤ 120',
      ok: total / 1024 <= 120,
    },
  ];
}
