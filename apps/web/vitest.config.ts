import { defineProject } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { appVersion, leanIcons } from './vite.config';

const conditions = ['@mailroom/source', ...defaultClientConditions];

export default defineProject({
  // The icons as the build draws them (lucide-react's shapes through src/ui/lucide-icon.ts).
  plugins: [react(), leanIcons],
  define: appVersion,
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'web',
    environment: 'jsdom',
    // https so that the Secure redirect cookie is accepted by jsdom as it is by browsers.
    environmentOptions: { jsdom: { url: 'https://mail.example.test/' } },
    include: ['src/**/*.test.{ts,tsx}'],
    // A screen test renders, types and waits in jsdom; beside a server test in the other worker it may take longer
    // than vitest's 5 s on a 2-core machine without being wrong.
    testTimeout: 15_000,
    setupFiles: ['src/test/setup.ts'],
    // The files share their workers' module graph and jsdom (82 -> 33 s for the project): each screen test renders
    // into a fresh container, and setup.ts clears what a test leaves (the DOM, cookies, storage).
    isolate: false,
    css: { modules: { classNameStrategy: 'non-scoped' } },
  },
});
