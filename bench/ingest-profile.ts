/**
 * Where SMTP ingest's CPU goes (#13): the server started as `npm start` starts it, under `node --cpu-prof` (every
 * thread writes a profile when the server stops), a member signed up, `messages` of the shared corpus sent over SMTP
 * with 4 connections, the server stopped; then cpu-breakdown.ts groups the profiles' self time.
 *
 *   node --conditions=@mailroom/source --import tsx bench/ingest-profile.ts [messages] [databaseUrl]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { corpus, fill } from './mailbox.js';
import { cpuSecondsOf, startServer } from './server-process.js';
import { signUp } from './ws.js';

const messages = Number(process.argv[2] ?? 2000);
const databaseUrl = process.argv[3];
const { files } = await corpus(Math.max(messages, 2000));
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-ingest-profile-'));
const profiles = path.join(dataDir, 'profiles');
const server = await startServer({
  dataDir,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
  ...(databaseUrl ? { databaseUrl } : {}),
});
try {
  const { email } = await signUp(server.http);
  const cpuBefore = await cpuSecondsOf(server.pid);
  const rate = await fill(server.smtpPort, files.slice(0, messages), email);
  const cpu = (await cpuSecondsOf(server.pid)) - cpuBefore;
  console.log(
    `${messages} messages at ${rate.toFixed(0)} messages/s; server CPU ${((cpu * 1000) / messages).toFixed(2)} ms/message`,
  );
} finally {
  await server.stop();
}
console.log(
  execFileSync(
    process.execPath,
    ['--import', 'tsx', new URL('./cpu-breakdown.ts', import.meta.url).pathname, profiles, String(messages)],
    { encoding: 'utf8' },
  ),
);
if (process.env.BENCH_KEEP_DATA) console.log(`profiles kept: ${profiles}`);
else await fs.rm(dataDir, { recursive: true, force: true });
