import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, defaultClientConditions, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const backend = 'http://127.0.0.1:8080';

/**
 * The web app's version (package.json), as `__APP_VERSION__` in the code: the support form shows and sends it with
 * the browser's diagnostics.
 */
export const appVersion: Record<string, string> = {
  __APP_VERSION__: JSON.stringify(
    (JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string })
      .version,
  ),
};

/**
 * lucide-react's icon modules build their components with its generic factory (context provider, size and stroke
 * props: ~1 KB gzipped in the mail shell, DESIGN §5); this points them at src/ui/lucide-icon.ts, which draws the
 * same SVG with only what the app uses.
 */
export const leanIcons: Plugin = {
  name: 'mailroom-lean-lucide-icons',
  enforce: 'pre',
  resolveId(source, importer) {
    if (
      source === '../createLucideIcon.mjs' &&
      importer &&
      /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(importer)
    )
      return fileURLToPath(new URL('./src/ui/lucide-icon.ts', import.meta.url));
    return null;
  },
};

/**
 * Production class names of the CSS Modules: every class of the .module.css files under src, by file and name in order,
 * numbered in base 36 (`_0`, `_1`, … `_4x`). Unlike random hashes these compress, and every CSS Module's class map
 * ships in JavaScript (~0.8 KB gzipped less in the mail shell); sorted, they come out the same on every build, and
 * they cannot collide. A name the scan misses (a keyframes name) gets a hash of file and name, six characters long,
 * so it cannot meet a numbered one either.
 */
function shortClassNames(): (name: string, filename: string) => string {
  const srcDir = fileURLToPath(new URL('./src/', import.meta.url));
  const files = fs
    .readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.module.css'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
  const names = new Map<string, string>();
  for (const file of files) {
    const css = fs.readFileSync(path.join(srcDir, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const classes = new Set([...css.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]!));
    for (const name of [...classes].sort()) names.set(`${file}:${name}`, `_${names.size.toString(36)}`);
  }
  return (name, filename) => {
    const file = path.relative(srcDir, filename.split('?')[0]!).split(path.sep).join('/');
    return (
      names.get(`${file}:${name}`) ??
      `_${createHash('sha256').update(`${file}:${name}`).digest('base64url').slice(0, 6)}`
    );
  };
}

/**
 * The mail shell's chunk (the entry) goes through terser's compressor, three passes, before the build's own minifier
 * (oxc) runs over it as over every chunk: the two together leave it ~1.3 KB gzipped smaller than oxc alone (DESIGN §5
 * budget; terser alone saved ~0.6). Only the entry, so the build stays quick: the big lazy chunks (the rich and the
 * Sieve editors) would triple its time.
 */
export const shellTerser: Plugin = {
  name: 'mailroom-shell-terser',
  apply: 'build',
  enforce: 'post',
  async renderChunk(code, chunk) {
    if (!chunk.isEntry) return null;
    const { minify } = await import('terser');
    const result = await minify(code, {
      module: true,
      // Property reads have no side effects (pure_getters): none of the shell's code reads a property for its effect
      // (no forced reflows by a bare `el.offsetHeight`), and it is ~0.17 KB gzipped of the 110 KB budget.
      compress: { passes: 3, pure_getters: true },
      mangle: false,
      sourceMap: false,
    });
    return result.code === undefined ? null : { code: result.code, map: null };
  },
};

/**
 * The interface text of each language as plain JSON beside the build (dist/texts/<language>.json): the server writes
 * the page's language into the index.html it serves a signed-in browser (issue 32, cold first screen), so the first
 * paint waits for no language chunk. The chunks stay, for every other page and for a change of language.
 */
export const textsForServer: Plugin = {
  name: 'mailroom-texts-for-server',
  apply: 'build',
  generateBundle() {
    const locales = new URL('./src/i18n/locales/', import.meta.url);
    // en.json, ru.json: the shell's text (features.*.json and errors.*.json load with their screens).
    for (const name of fs.readdirSync(locales).filter((file) => /^[a-z]{2}\.json$/.test(file))) {
      const file = new URL(name, locales);
      this.emitFile({
        type: 'asset',
        fileName: `texts/${name}`,
        source: JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8'))),
      });
    }
  },
};

export default defineConfig(({ mode }) => ({
  plugins: [react(), leanIcons, shellTerser, textsForServer],
  define: appVersion,
  // Production class names are short hashes of file and class: every CSS Module's class map ships inside the
  // mail shell's JavaScript (DESIGN §5 budget); development keeps readable names.
  css: {
    modules: {
      generateScopedName: mode === 'production' ? shortClassNames() : '_[name]_[local]_[hash:base64:4]',
    },
  },
  // A JSON module (the interface texts) is its default export only: named exports for its top-level keys, which
  // nothing imports, cost ~0.1 KB gzipped in each language's chunk that the shell loads at start (DESIGN §5).
  json: { namedExports: false },
  // Read @mailroom/protocol from its TypeScript sources, so the web app never needs a protocol build first.
  resolve: {
    conditions: ['@mailroom/source', ...defaultClientConditions],
    // React 19 has useSyncExternalStore: wouter's import of the pre-18 shim gets React's own (DESIGN §5 budget).
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: 'react',
      },
    ],
  },
  build: {
    outDir: 'dist',
    // index.html preloads nothing (the shell is one chunk), and Vite's loader of lazy chunks falls back to
    // rel=preload where modulepreload is not supported: the polyfill (~0.2 KB gzipped) would have nothing to do.
    modulePreload: { polyfill: false },
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Everything the shell loads at start in one chunk: a module shared by the shell and a lazy screen stays
        // with the shell instead of becoming a small chunk of its own (each cost a request and ~0.3 KB of gzip).
        // The group takes every module the shell imports statically, used or not: the index.ts of a lazy feature
        // that the shell imports (for its loaders) must not re-export that feature's modules, or they come along.
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
        // Seven characters of hash, not eight: the shell carries the name of every file a lazy chunk needs (its
        // preload list), ~100 names, where the eighth character costs ~0.1 KB gzipped (DESIGN §5); 42 bits still tell
        // every version of a file apart, which is all an immutable asset's name has to do (rolldown asks for 7 at
        // this many chunks).
        entryFileNames: 'assets/[name]-[hash:7].js',
        chunkFileNames: 'assets/[name]-[hash:7].js',
        assetFileNames: 'assets/[name]-[hash:7][extname]',
      },
      treeshake: {
        // The protocol package has no "sideEffects" field, so its zod schemas would drag all of zod into the
        // mail shell even though the client only needs its types and plain helpers (DESIGN §5 budget).
        // Our own modules run nothing when imported either (main.tsx aside): a feature's index.ts re-exports what
        // other areas use, and a module none of whose exports is used (with its CSS) must not ride into the shell
        // chunk through that index, e.g. compose's encryption switch through the decrypt page's loader.
        moduleSideEffects: (id: string) =>
          !/[\\/]packages[\\/]protocol[\\/]src[\\/]/.test(id) &&
          !(/[\\/]apps[\\/]web[\\/]src[\\/].*\.tsx?$/.test(id) && !/[\\/]src[\\/]main\.tsx$/.test(id)),
      },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/auth': backend,
      '/oidc': backend,
      '/idp': backend,
      '/healthz': backend,
      '/ws': { target: backend, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': backend,
      '/auth': backend,
      '/oidc': backend,
      '/idp': backend,
      '/healthz': backend,
      '/ws': { target: backend, ws: true },
    },
  },
}));
