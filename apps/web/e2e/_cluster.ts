import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../../test-support/ports.js';
import { startS3 } from '../../../test-support/s3.js';
import { spawnServer, type ServerInfo } from './_processes.js';

// The cluster mode of the end-to-end tests (issue 19, `npm run e2e:cluster`, E2E_NODES=3): several server processes
// on one fresh PostgreSQL database and one s3rver bucket, with the same SECRET_KEY and PUBLIC_URL, behind a
// round-robin proxy on loopback: every HTTP request and every websocket goes to the next node (no stickiness), and
// so does every SMTP connection. The browser and the SMTP clients of the tests talk to the proxies only.

/** How many nodes the end-to-end tests run on: 1 (one server on PGlite, the default) or E2E_NODES. */
export const clusterNodes = Math.max(1, Number(process.env.E2E_NODES ?? 1) || 1);

const adminUrl = process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A round-robin HTTP proxy: each request, and each websocket upgrade, to the next of `ports`. */
async function startHttpProxy(port: number, ports: number[]): Promise<() => Promise<void>> {
  let next = 0;
  const pick = () => ports[next++ % ports.length]!;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: pick(), method: req.method, path: req.url, headers: req.headers, agent },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.rawHeaders);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  // Idle client connections stay open longer than the tests' pauses between requests: with Node's 5 s, a request
  // reusing a connection the proxy was closing met ECONNRESET (the three-node e2e's arrival polls, now and then).
  server.keepAliveTimeout = 65_000;
  const sockets = new Set<net.Socket>();
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const upstream = net.connect(pick(), '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      server.close(() => resolve());
    });
}

/** A round-robin TCP proxy (for SMTP): each connection to the next of `ports`. */
async function startTcpProxy(port: number, ports: number[]): Promise<() => Promise<void>> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(ports[next++ % ports.length]!, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/**
 * `nodes` built servers on a fresh PostgreSQL database and a fresh s3rver bucket, behind round-robin proxies for HTTP
 * (PUBLIC_URL) and SMTP. `dataDir` holds every node's data folder and the bucket's objects; `adminDataDir` is the
 * first node's (its admin socket, for the operator CLI). The first node starts alone (it runs the migrations), the
 * others after it.
 */
export async function spawnCluster(
  env: Record<string, string> = {},
  nodes = clusterNodes,
): Promise<ServerInfo & { stop: () => Promise<void> }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-e2e-cluster-'));
  const database = `mailroom_e2e_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${database}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    await admin(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await fs.rm(root, { recursive: true, force: true });
  };
  try {
    const s3 = await startS3({ dir: path.join(root, 's3') });
    stops.push(() => s3.stop());
    const httpPort = await freePort();
    const smtpPort = await freePort();
    const url = `http://localhost:${httpPort}`;
    const shared = {
      ...s3.env,
      DATABASE_URL: databaseUrl.href,
      SECRET_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: url,
      ...env,
    };
    const started: Awaited<ReturnType<typeof spawnServer>>[] = [];
    const startNode = async (i: number) => {
      const node = await spawnServer({ ...shared, DATA_DIR: path.join(root, `node-${i + 1}`) });
      stops.push(node.stop);
      started[i] = node;
    };
    await startNode(0);
    await Promise.all(Array.from({ length: nodes - 1 }, (_, i) => startNode(i + 1)));
    const nodePort = (node: ServerInfo) => Number(new URL(node.url).port);
    stops.push(await startHttpProxy(httpPort, started.map(nodePort)));
    stops.push(
      await startTcpProxy(
        smtpPort,
        started.map((n) => n.smtpPort),
      ),
    );
    return {
      url,
      smtpPort,
      dataDir: root,
      adminDataDir: started[0]!.dataDir,
      databaseUrl: databaseUrl.href,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
