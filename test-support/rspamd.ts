/**
 * A real Rspamd of the test's own on loopback ports (issue 30: spam scoring), for the server's tests and the bench.
 * Debian's rspamd is installed by `install-rspamd.sh` when missing. Each server gets a temporary configuration over
 * the package's own (`--var LOCAL_CONFDIR=…`): its normal worker and controller on free ports, the machine's local
 * Redis (database 9) for Bayes with per-user statistics, DNS through the test's DNS server (never the internet), no
 * greylisting, and two rules of the tests' own: a Subject containing `[junk-test]` scores 8 (Rspamd's "add header"
 * action, at 6), one containing `[soft-test]` forces "soft reject". The GTUBE string is Rspamd's own reject.
 * Its compiled Hyperscan cache is kept across runs in the temporary folder (a cold start compiles for ~10 s).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

export interface Rspamd {
  /** The normal worker (scans): RSPAMD_URL. */
  url: string;
  /** The controller (learning, stats): RSPAMD_CONTROLLER_URL. */
  controllerUrl: string;
  password: string;
  /** Stops it (SIGTERM, then SIGKILL): a test sees what an Rspamd that went away does. */
  stop(): Promise<void>;
  /** Starts it again on the same ports. */
  start(): Promise<void>;
}

export const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

const here = path.dirname(fileURLToPath(import.meta.url));
let installed = false;

/** Installs Rspamd from Debian's packages when it is missing (once per process; the script locks across them). */
export function ensureRspamd(): void {
  if (installed) return;
  execFileSync(path.join(here, 'install-rspamd.sh'), { stdio: 'inherit' });
  installed = true;
}

export async function startRspamd(options: { dnsServer: string; redisDb?: number }): Promise<Rspamd> {
  ensureRspamd();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-rspamd-'));
  const local = path.join(dir, 'local.d');
  const hsCache = path.join(os.tmpdir(), 'mailroom-rspamd-hs-cache');
  await Promise.all([
    fs.mkdir(local, { recursive: true }),
    fs.mkdir(path.join(dir, 'db')),
    fs.mkdir(path.join(dir, 'run')),
    fs.mkdir(hsCache, { recursive: true }),
  ]);
  const [normal, controller] = [await freePort(), await freePort()];
  const password = 'rspamd-test';
  const [dnsHost, dnsPort] = options.dnsServer.split(':');
  const files: Record<string, string> = {
    'worker-normal.inc': `bind_socket = "127.0.0.1:${normal}";\ncount = 1;\n`,
    'worker-controller.inc': `bind_socket = "127.0.0.1:${controller}";\npassword = "${password}";\nenable_password = "${password}";\ncount = 1;\n`,
    'worker-proxy.inc': 'enabled = false;\n',
    'worker-fuzzy.inc': 'enabled = false;\n',
    'redis.conf': `servers = "127.0.0.1:6379";\ndb = "${options.redisDb ?? 9}";\n`,
    'options.inc': `dns { nameserver = ["${dnsHost}:${dnsPort ?? 53}"]; timeout = 1s; retransmits = 1; }\nlocal_addrs = [];\nhs_cache_dir = "${hsCache}/";\n`,
    'logging.inc': `type = "file";\nfilename = "${path.join(dir, 'rspamd.log')}";\nlevel = "warning";\n`,
    'greylist.conf': 'enabled = false;\n',
    'classifier-bayes.conf': 'per_user = true;\nmin_learns = 1;\nmin_tokens = 5;\n',
    'multimap.conf': `TEST_JUNK {\n  type = "header";\n  header = "Subject";\n  regexp = true;\n  map = "${path.join(dir, 'junk.map')}";\n  score = 8.0;\n}\nTEST_SOFT {\n  type = "header";\n  header = "Subject";\n  regexp = true;\n  map = "${path.join(dir, 'soft.map')}";\n  score = 0.0;\n}\n`,
    'force_actions.conf':
      'rules {\n  TEST_SOFT_REJECT {\n    action = "soft reject";\n    expression = "TEST_SOFT";\n    message = "Try again later";\n  }\n}\n',
  };
  await Promise.all([
    ...Object.entries(files).map(([name, text]) => fs.writeFile(path.join(local, name), text)),
    fs.writeFile(path.join(dir, 'junk.map'), '/\\[junk-test\\]/i\n'),
    fs.writeFile(path.join(dir, 'soft.map'), '/\\[soft-test\\]/i\n'),
  ]);

  let child: ChildProcess | undefined;
  const url = `http://127.0.0.1:${normal}`;
  const controllerUrl = `http://127.0.0.1:${controller}`;
  const start = async () => {
    const spawned = spawn(
      'rspamd',
      [
        '-f',
        '-i',
        '-c',
        '/etc/rspamd/rspamd.conf',
        '--var',
        `LOCAL_CONFDIR=${dir}`,
        '--var',
        `DBDIR=${path.join(dir, 'db')}`,
        '--var',
        `RUNDIR=${path.join(dir, 'run')}`,
        '--var',
        `LOGDIR=${dir}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = spawned;
    let stderr = '';
    spawned.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const deadline = Date.now() + 90_000;
    // Up once both workers answer and the normal one has its rules (a scan then gives the GTUBE reject).
    for (;;) {
      if (spawned.exitCode !== null) throw new Error(`rspamd exited ${spawned.exitCode}: ${stderr}`);
      if ((await ping(url)) && (await ping(controllerUrl))) break;
      if (Date.now() > deadline) throw new Error(`rspamd did not start in 90 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const killer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  await start();
  return {
    url,
    controllerUrl,
    password,
    start,
    async stop() {
      await stop();
    },
  };
}

async function ping(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) });
    return response.ok && (await response.text()).trim() === 'pong';
  } catch {
    return false;
  }
}

/** Removes a stopped server's folder. */
export async function removeRspamdDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}
