import type { TestProject } from 'vitest/node';
import { clusterNodes, spawnCluster } from './_cluster.js';
import { spawnServer } from './_processes.js';

/**
 * One server for the whole run: a server's start (a new PGlite and its migrations) takes 5–8 s, which every test
 * file paid before. The files keep apart by signing up users of their own and sending mail only to them. With
 * E2E_NODES=3 (`npm run e2e:cluster`) that "server" is three processes on one PostgreSQL database and one S3 bucket
 * behind round-robin proxies (_cluster.ts).
 */
export default async function setup(project: TestProject) {
  // Every file signs its users up from 127.0.0.1, all within a minute or two.
  const env = { AUTH_RATE_LIMIT: '10000' };
  const { stop, ...server } = clusterNodes > 1 ? await spawnCluster(env) : await spawnServer(env);
  project.provide('server', server);
  return stop;
}
