import { defineConfig } from 'vitest/config';

// End-to-end tests: the built server as a child process, driven by Debian's Chromium (`npm run e2e`).
// _global-setup.ts starts one server for all files; a file needing other settings starts its own.
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./_global-setup.ts'],
    // A whole flow on three nodes and a browser on 2 cores: the suite took 281 s on one machine and 916 s on a slower
    // one, where a 41-s test (alone) passed 90 s with three files at a time; the bound is for a hang, not for speed.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Several files at a time: much of a file's time is waiting (for mail to arrive, a dialog to close, a poll), so
    // the second one fills it; they share the server and keep to their own users.
    fileParallelism: true,
    // Three: on three nodes the suite took 354 s with two, 313 with three (2-core machine).
    maxWorkers: 3,
    // A file's modules (the harness, the browser driver) are imported once per worker, not once per file.
    isolate: false,
  },
});
