import { fileURLToPath } from 'node:url';
import { defineConfig, defaultClientConditions, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const backend = 'http://127.0.0.1:8080';

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

export default defineConfig(({ mode }) => ({
  plugins: [react(), leanIcons],
  // Production class names are short hashes of file and class: every CSS Module's class map ships inside the
  // mail shell's JavaScript (DESIGN §5 budget); development keeps readable names.
  css: {
    modules: {
      generateScopedName: mode === 'production' ? '_[hash:base64:6]' : '_[name]_[local]_[hash:base64:4]',
    },
  },
  // Read @mailroom/protocol from its TypeScript sources, so the web app never needs a protocol build first.
  resolve: {
    conditions: ['@mailroom/source', ...defaultClientConditions],
    // React 19 has useSyncExternalStore: wouter's import of the pre-18 shim gets React's own (DESIGN §5 budget).
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Everything the shell loads at start in one chunk: a module shared by the shell and a lazy screen stays
        // with the shell instead of becoming a small chunk of its own (each cost a request and ~0.3 KB of gzip).
        // The group takes every module the shell imports statically, used or not: the index.ts of a lazy feature
        // that the shell imports (for its loaders) must not re-export that feature's modules, or they come along.
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
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
