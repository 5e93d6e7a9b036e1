import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const cli = new URL('../src/cli.ts', import.meta.url).pathname;

/**
 * The `mailroom` command (src/cli.ts) as a child process, on the embedded database of `env`'s DATA_DIR (never the
 * test run's DATABASE_URL): rejects with the exit code, stdout and stderr when it fails.
 */
export function mailroom(args: string[], env: Record<string, string>, timeoutMs = 120_000) {
  const { DATABASE_URL: _omit, ...rest } = process.env;
  return run(process.execPath, ['--conditions=@mailroom/source', '--import', 'tsx', cli, ...args], {
    env: { ...rest, LOG_LEVEL: 'silent', ...env },
    timeout: timeoutMs,
  });
}
