/**
 * A real Dovecot IMAP server of the test's own on a loopback port (issue 18: collectors), for the server's tests, the
 * end-to-end tests and the bench. Debian's dovecot-imapd is installed by `install-dovecot.sh` when missing. Each
 * server gets a temporary folder with its configuration, a passwd file and the users' Maildirs; it runs in the
 * foreground as a child process, so a test can kill it (a server that vanishes mid-import) and start it again on the
 * same port with the same mail.
 *
 * Dovecot's master runs as root here (CI and the sessions run as root); the users' mail is owned by `nobody`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ImapFlow } from 'imapflow';
import { accepts, freePort } from './ports.js';

export interface DovecotUser {
  user: string;
  password: string;
}

export interface DovecotOptions {
  users: DovecotUser[];
  /** The loopback address to listen on (default 127.0.0.1). */
  address?: string;
  /** Also listen with implicit TLS (a self-signed certificate: a client that verifies it fails, as it should). */
  tls?: boolean;
}

export interface Dovecot {
  host: string;
  /** The plain IMAP port (STARTTLS offered only when `tls`). */
  port: number;
  /** The implicit-TLS port when `tls` was asked for. */
  tlsPort: number | null;
  dir: string;
  /** A signed-in imapflow client for one of the users (the test's way to fill and change the remote mailbox). */
  client(user: string): Promise<ImapFlow>;
  addUser(user: DovecotUser): Promise<void>;
  setPassword(user: string, password: string): Promise<void>;
  /** Kills the server at once (SIGKILL): open connections drop. */
  kill(): Promise<void>;
  /** Starts it again on the same ports with the same mail. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
let installed = false;

/** Installs Dovecot from Debian's packages when it is missing (once per process; the script locks across them). */
export function ensureDovecot(): void {
  if (installed) return;
  execFileSync(path.join(here, 'install-dovecot.sh'), { stdio: 'inherit' });
  installed = true;
}

export async function startDovecot(options: DovecotOptions): Promise<Dovecot> {
  ensureDovecot();
  const host = options.address ?? '127.0.0.1';
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-dovecot-'));
  await fs.chmod(dir, 0o755);
  for (const sub of ['run', 'state', 'mail']) await fs.mkdir(path.join(dir, sub), { mode: 0o777 });
  await fs.chmod(path.join(dir, 'mail'), 0o777);
  const port = await freePort();
  const tlsPort = options.tls ? await freePort() : null;
  const users = new Map(options.users.map((u) => [u.user, u.password]));
  const writePasswd = () =>
    fs.writeFile(
      path.join(dir, 'passwd'),
      [...users].map(([user, password]) => `${user}:{PLAIN}${password}\n`).join(''),
      { mode: 0o644 },
    );
  await writePasswd();
  if (options.tls) {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=imap.test'],
        ...['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
      ],
      { stdio: 'ignore' },
    );
  }
  await fs.writeFile(path.join(dir, 'dovecot.conf'), configText(dir, host, port, tlsPort));

  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('dovecot', ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await acceptsOn(host, port))) {
      if (Date.now() > deadline)
        throw new Error(`dovecot did not listen on ${host}:${port}; see ${dir}/dovecot.log`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    // The master's children (imap, imap-login, auth) outlive a SIGKILLed master, and their command lines do not name
    // this server's folder: they are found by parentage first, then all end at once, so open connections drop.
    const tree = descendants(running.pid!);
    running.kill('SIGKILL');
    for (const pid of tree) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await exited;
    try {
      execFileSync('pkill', ['-KILL', '-f', dir], { stdio: 'ignore' });
    } catch {
      // none left
    }
    await fs.rm(path.join(dir, 'run', 'master.pid'), { force: true });
  };
  await start();

  return {
    host,
    port,
    tlsPort,
    dir,
    async client(user) {
      const client = new ImapFlow({
        host,
        port,
        secure: false,
        // The test's own client trusts the test's own self-signed certificate when STARTTLS is offered.
        tls: { rejectUnauthorized: false },
        auth: { user, pass: users.get(user) ?? '' },
        logger: false,
      });
      await client.connect();
      return client;
    },
    async addUser(user) {
      users.set(user.user, user.password);
      await writePasswd();
    },
    async setPassword(user, password) {
      users.set(user, password);
      await writePasswd();
    },
    kill,
    start,
    async stop() {
      await kill();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The processes below `pid` (children, theirs, …), read from ps. */
/** Every process below `pid` (children, their children…), from `ps`; empty when ps cannot run. */
export function descendants(pid: number): number[] {
  let table: string;
  try {
    table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of table.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

async function acceptsOn(host: string, port: number): Promise<boolean> {
  if (host === '127.0.0.1') return accepts(port);
  const net = await import('node:net');
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function configText(dir: string, host: string, port: number, tlsPort: number | null): string {
  const tls = tlsPort !== null;
  return `# Written by test-support/dovecot.ts
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = ${host}
ssl = ${tls ? 'yes' : 'no'}
${tls ? `ssl_cert = <${dir}/cert.pem\nssl_key = <${dir}/key.pem` : ''}
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
mail_uid = nobody
mail_gid = nogroup
first_valid_uid = 1
# CONDSTORE/QRESYNC are on by default in 2.3 when asked for; IDLE too.
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${dir}/mail/%u
}
namespace inbox {
  inbox = yes
  separator = .
}
service imap-login {
  inet_listener imap {
    address = ${host}
    port = ${port}
  }
  inet_listener imaps {
    address = ${host}
    port = ${tlsPort ?? 0}
  }
  chroot =
}
service anvil {
  chroot =
}
`;
}
