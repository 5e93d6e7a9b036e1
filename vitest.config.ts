import { defineConfig } from 'vitest/config';

// One command runs every unit and integration test (README: `npm test`).
// Workspace sources are used directly through the "@mailroom/source" export condition.
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one on a 2-core machine. The tests wait on fsync, sockets
    // and child processes as much as they compute: two workers took the suite from ~9.5 to ~7 minutes there, and with
    // the files sharing their workers (isolate: false below) a third one takes the server project from 4m39 (two) to
    // 4m13 (four: 4m52).
    maxWorkers: 3,
    projects: [
      {
        test: { name: 'protocol', include: ['packages/*/src/**/*.test.ts'], environment: 'node' },
        resolve: { conditions: ['@mailroom/source'] },
        ssr: { resolve: { conditions: ['@mailroom/source'] } },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['apps/server/test/global-setup.ts'],
          // A worker runs its files one after another in one module graph instead of importing the server afresh for
          // each: import was 270 of the project's 462 s on PGlite (2-core machine), 112 s of 279 without. The files
          // already keep to their own databases, servers and ports; cleanup() in test/_util.ts asks vitest whether a
          // test is running rather than reading expect's state, which outlives a file here.
          isolate: false,
        },
        resolve: { conditions: ['@mailroom/source'] },
        ssr: { resolve: { conditions: ['@mailroom/source'] } },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
