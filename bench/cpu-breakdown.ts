/**
 * Where a process's CPU went, from the V8 CPU profiles `node --cpu-prof` writes (one per thread): self time grouped
 * by what ran it — a package under node_modules, an area of our server, PGlite's WebAssembly (PostgreSQL itself),
 * the garbage collector, or V8/Node internals. Used for the ingest breakdown in bench/RESULTS.md (#13):
 *
 *   NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" node --conditions=@mailroom/source --import tsx bench/mailbox.ts 2000
 *   node --import tsx bench/cpu-breakdown.ts /tmp/prof [messages]
 *
 * The bench's own process writes a profile too; only the server's threads (main.js and its workers) are counted.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function groupOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)' || (!url && functionName.startsWith('('))) return 'V8 and Node internals';
  if (url.startsWith('wasm://')) return 'PGlite: PostgreSQL (WebAssembly)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1] === '@electric-sql/pglite' ? 'PGlite: JavaScript side' : modules[1]!;
  const ours = /apps\/server\/(?:dist|src)\/([^/]+)/.exec(url);
  if (ours) return `ours: ${ours[1]!.replace(/\.js$/, '')}`;
  // Named: a synchronous system call (fdatasyncSync) shows here, as wall time on the thread, not CPU.
  if (url.startsWith('node:') || !url) return `Node: ${functionName || '(anonymous)'} (${url || 'native'})`;
  return url;
}

const dir = process.argv[2]!;
const messages = Number(process.argv[3] ?? 0);
const totals = new Map<string, number>();
let all = 0;
for (const file of await fs.readdir(dir)) {
  if (!file.endsWith('.cpuprofile')) continue;
  const profile = JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as Profile;
  const urls = profile.nodes.map((n) => n.callFrame.url);
  const isServer = urls.some((u) => /apps\/server\/dist\//.test(u));
  if (!isServer) continue;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const group = groupOf(byId.get(id)!);
    if (group === 'idle') return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    totals.set(group, (totals.get(group) ?? 0) + ms);
    all += ms;
  });
}
const rows = [...totals].sort((a, b) => b[1] - a[1]);
console.log(`| where | CPU ms${messages ? ' per message' : ''} | share |\n| --- | --- | --- |`);
for (const [group, ms] of rows.slice(0, 25))
  console.log(
    `| ${group} | ${(messages ? ms / messages : ms).toFixed(2)} | ${((100 * ms) / all).toFixed(1)} % |`,
  );
console.log(`| all | ${(messages ? all / messages : all).toFixed(2)} | 100 % |`);
