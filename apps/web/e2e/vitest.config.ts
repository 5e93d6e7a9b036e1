import { defineConfig } from 'vitest/config';

// End-to-end tests: the built server as a child process, driven by Debian's Chromium (`npm run e2e`).
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
