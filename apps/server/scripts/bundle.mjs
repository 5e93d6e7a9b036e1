/**
 * `npm run build` (after tsc): the server as `npm start` runs it, bundled and minified into build/ — main.js, the
 * worker entries (parse, Sieve) and the embedded database's initdb child beside it, with the parts loaded on first use
 * (the S3 client, the IMAP client, the development IdP, the contacts readers, …) split into chunks of their own. Why:
 * V8 keeps every loaded module's source text for the life of the process, ~12 MB as written across ~1,900 files; the
 * bundle holds the same code in ~4 MB and starts with one module graph instead of ~1,900 files (issue 32: an idle
 * server on PostgreSQL 112 → 96 MB). Bundled from tsc's output in dist/ (type-checked, the `@mailroom/*` packages
 * built). Left outside: PGlite (it finds its WebAssembly and data files next to its own module), mailauth (loaded by
 * path with createRequire, its main entry needs Node 22), oidc-provider (the development IdP, loaded on first use; it
 * names its models by their classes' names, which minifying renames) and pg's optional native binding.
 */
import fs from 'node:fs/promises';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const out = new URL('build/', root).pathname;

await fs.rm(out, { recursive: true, force: true });
await build({
  absWorkingDir: root.pathname,
  entryPoints: {
    main: 'dist/main.js',
    'parse-worker': 'dist/mailbox/parse/parse-worker.js',
    'sieve-worker': 'dist/filters/sieve-worker.js',
    'pglite-initdb': 'dist/core/db/pglite-initdb.js',
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Names too (keeping them, esbuild's keepNames, costs 5 MB of an idle heap): a library that reads a class's name
  // stays outside (oidc-provider names its models so); errors keep their `name`, which our catalogue's set.
  minify: true,
  // Stack traces name the source files and lines (node --enable-source-maps), without the maps in memory otherwise.
  sourcemap: 'external',
  external: ['@electric-sql/pglite', 'mailauth', 'oidc-provider', 'pg-native'],
  // CommonJS dependencies bundled into ES modules call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __mailroomRequire } from 'node:module'; const require = __mailroomRequire(import.meta.url);",
  },
  logLevel: 'warning',
  legalComments: 'none',
});
