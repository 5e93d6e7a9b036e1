/**
 * A real S3-compatible server of the test's own on a loopback port (issue 19: the S3 blob store), for the server's
 * tests, the end-to-end tests and the bench: s3rver from npm, run as a child process so a test can kill it (S3 down)
 * and start it again on the same port with the same objects.
 *
 * s3rver makes ListObjectsV2's continuation tokens with DES, which OpenSSL 3 only has in its legacy provider: the
 * child runs with --openssl-legacy-provider (in-process, a paginated listing would fail with a 500).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './ports.js';

/** s3rver's fixed credentials: it checks every request's signature against them. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';

export interface S3Server {
  endpoint: string;
  port: number;
  bucket: string;
  /** The server's settings for this bucket (BLOB_STORE=s3 and the S3_* variables). */
  env: Record<string, string>;
  /** The same as config.blobs.s3 takes them. */
  settings: {
    endpoint: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  };
  /** The folder s3rver keeps the objects in. */
  dir: string;
  /** Kills the server at once (SIGKILL): requests in flight fail, new ones are refused. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same objects. */
  start(): Promise<void>;
  /** Stops it and removes its objects. */
  stop(): Promise<void>;
}

const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');

/** Starts s3rver on 127.0.0.1 with `bucket` (default mailroom-blobs) created, its objects in `dir` (a new folder). */
export async function startS3(options: { bucket?: string; dir?: string } = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'mailroom-blobs';
  const dir = options.dir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-s3-')));
  await fs.mkdir(dir, { recursive: true });
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    const started = spawn(
      process.execPath,
      [
        '--openssl-legacy-provider',
        bin,
        ...['--directory', dir, '--address', '127.0.0.1', '--port', String(port)],
        '--silent',
        ...['--configure-bucket', bucket],
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child = started;
    await waitForPort(port, started, 30_000);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = {
    endpoint,
    bucket,
    region: REGION,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    forcePathStyle: true,
  };
  return {
    endpoint,
    port,
    bucket,
    dir,
    settings,
    env: {
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: REGION,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    kill,
    start,
    stop: async () => {
      await kill();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
