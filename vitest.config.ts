import { defineConfig } from 'vitest/config';

// One command runs every unit and integration test (README: `npm test`).
// Workspace sources are used directly through the "@mailroom/source" export condition.
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one on a 2-core machine. The tests wait on fsync, sockets
    // and child processes as much as they compute, so two workers take the suite from ~9.5 to ~7 minutes there.
    maxWorkers: 2,
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
        },
        resolve: { conditions: ['@mailroom/source'] },
        ssr: { resolve: { conditions: ['@mailroom/source'] } },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
