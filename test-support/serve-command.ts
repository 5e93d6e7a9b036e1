/**
 * How `npm start` starts the server: apps/server's `serve` script, `[VAR=value …] node [--flag …] build/main.js`
 * (the memory settings: glibc's malloc arenas capped, V8's young generation small). What starts the real server as a
 * child process — the benchmarks (bench/server-process.ts) and the server's tests (apps/server/test/_server.ts) —
 * takes its variables and Node flags from here, so it runs with them as production does.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const root = new URL('../', import.meta.url).pathname;
const manifest = new URL('../apps/server/package.json', import.meta.url);

export interface ServeCommand {
  /** Variables set before `node` (e.g. MALLOC_ARENA_MAX=2). */
  env: Record<string, string>;
  /** Node's flags before the script (e.g. --max-semi-space-size=4). */
  nodeArgs: string[];
  /** The script, from the repository's root: the bundle `npm run build` makes (apps/server/scripts/bundle.mjs). */
  entry: string;
}

/** The serve script's variables and Node flags; a script of another shape throws rather than be run without them. */
export function serveCommand(): ServeCommand {
  const script = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { scripts: { serve: string } }).scripts
    .serve;
  const words = script.trim().split(/\s+/);
  const node = words.indexOf('node');
  const assignments = words.slice(0, Math.max(node, 0));
  const nodeArgs = words.slice(node + 1, -1);
  if (
    node < 0 ||
    words.at(-1) !== 'build/main.js' ||
    !assignments.every((w) => /^[A-Z_][A-Z0-9_]*=\S*$/.test(w)) ||
    !nodeArgs.every((w) => w.startsWith('--'))
  )
    throw new Error(
      `apps/server's serve script is not "[VAR=value …] node [--flag …] build/main.js": ${script}`,
    );
  const env = Object.fromEntries(
    assignments.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)] as const),
  );
  return { env, nodeArgs, entry: 'apps/server/build/main.js' };
}

/** Builds what the serve script runs, as `npm run build -w @mailroom/server` does: tsc's files, then the bundle. */
export function buildServer(): void {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', 'apps/server'], {
    cwd: root,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, ['apps/server/scripts/bundle.mjs'], { cwd: root, stdio: 'inherit' });
}
