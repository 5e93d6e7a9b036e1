import type { TestProject } from 'vitest/node';
import { spawnServer } from './_processes.js';

/**
 * One server for the whole run: a server's start (a new PGlite and its migrations) takes 5–8 s, which every test
 * file paid before. The files keep apart by signing up users of their own and sending mail only to them.
 */
export default async function setup(project: TestProject) {
  // Every file signs its users up from 127.0.0.1, all within a minute or two.
  const { stop, ...server } = await spawnServer({ AUTH_RATE_LIMIT: '10000' });
  project.provide('server', server);
  return stop;
}
