/**
 * Writes a .br and a .gz beside every text asset of the built app, so the server sends the compressed file
 * (@fastify/static preCompressed) instead of 440 KB of plain JavaScript, without compressing on every request.
 * Brotli at its highest quality and gzip at level 9: this runs once per build, not per request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const dist = path.resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);
const compressible = /\.(js|mjs|css|html|json|svg|txt|map)$/;
// Below this a compressed copy saves nothing worth a second file.
const MIN_BYTES = 1024;

async function* files(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (compressible.test(entry.name)) yield full;
  }
}

let count = 0;
for await (const file of files(dist)) {
  const bytes = await fs.readFile(file);
  if (bytes.length < MIN_BYTES) continue;
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: 9 }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
  count++;
}
console.log(`precompressed ${count} files in ${path.relative(process.cwd(), dist) || '.'}`);
