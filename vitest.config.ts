import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Two tiers (README, Development). `npm test` runs the fast one: the projects protocol, server and web.
// `npm run test:slow` runs server-slow: the files that start the server or the CLI as child processes and stop, kill
// or trace them, and the few others that take long (durations measured on PGlite, 2-core machine, three workers).
// `npm run test:all` (a bare `vitest run`) runs both; CI runs the two tiers side by side (.ci/run).
// Workspace sources are used directly through the "@mailroom/source" export condition.
const slowServerTests = [
  'apps/server/test/core/pglite-durability.test.ts', // 100 s: PGlite and the server under strace, four times
  'apps/server/test/collectors/collectors-kill.test.ts', // 51 s: kills the server mid-import
  'apps/server/test/imports/mail-import-kill.test.ts', // kills the server three times mid-import of an mbox
  'apps/server/test/delivery/smtp-memory.test.ts', // 49 s: a server process's memory under load
  'apps/server/test/process/cli.test.ts', // 47 s: the CLI as child processes
  'apps/server/test/process/shutdown.test.ts', // 45 s: SIGTERM while mail is in flight
  'apps/server/test/process/crash.test.ts', // 29 s: SIGKILL while mail is in flight
  'apps/server/src/core/db/pglite-open.test.ts', // 28 s: creates PGlite data folders from scratch
  'apps/server/test/process/cli-dkim.test.ts', // 19 s: the CLI as child processes
  'apps/server/test/imports/mail-import-cli.test.ts', // `mailroom import` as child processes
  'apps/server/test/filters/sieve-cli.test.ts', // 18 s: `mailroom sieve test` as child processes
  'apps/server/test/core/blobs-s3.test.ts', // 16 s: a server process on S3
  'apps/server/test/process/cluster-kill.test.ts', // PostgreSQL only: kills one of two server processes
  'apps/server/test/process/cluster-scheduled.test.ts', // PostgreSQL only: 10,000 scheduled sends, a node killed
  'apps/server/test/process/idle-memory.test.ts', // ~20 s: builds the server and measures an idle one
  'apps/server/test/mail/export-memory.test.ts', // ~25 s: 2 × 100 MB of mail exported through a slow reader
];

const server: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  globalSetup: ['apps/server/test/global-setup.ts'],
  // A worker runs its files one after another in one module graph instead of importing the server afresh for
  // each: import was 270 of the project's 462 s on PGlite (2-core machine), 112 s of 279 without. The files
  // already keep to their own databases, servers and ports; cleanup() in test/_util.ts asks vitest whether a
  // test is running rather than reading expect's state, which outlives a file here.
  isolate: false,
};
const sourceConditions = {
  resolve: { conditions: ['@mailroom/source'] },
  ssr: { resolve: { conditions: ['@mailroom/source'] } },
};

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
        ...sourceConditions,
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...slowServerTests],
          ...server,
        },
        ...sourceConditions,
      },
      {
        // Each of these waits on child processes it starts (a server, the CLI, under strace); beside the fast tier on two
        // cores (CI, where it runs niced) one such start took 10-20 s: the bound is for a hang, not for speed.
        test: {
          name: 'server-slow',
          include: slowServerTests,
          ...server,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
        ...sourceConditions,
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
