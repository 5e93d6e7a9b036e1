import { defineConfig } from 'vitest/config';

// End-to-end tests: the built server as a child process, driven by Debian's Chromium (`npm run e2e`).
// _global-setup.ts starts one server and one Chromium for all files; a file needing other settings starts its own.
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./_global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
