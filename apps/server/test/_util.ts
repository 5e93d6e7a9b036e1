import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, onTestFinished } from 'vitest';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { FastifyInstance, FastifyServerOptions, LightMyRequestResponse } from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig, type Config } from '../src/config.js';
import { migrate, openDatabase, type Db } from '../src/core/db/index.js';
import { pgliteExtensions } from '../src/core/db/pglite-open.js';
import { appInvoicePurposes, buildApp } from '../src/app.js';
import { openWalletGateway, type InvoicePurposes, type WalletGateway } from '../src/wallet/index.js';
import { generateSecrets } from '../src/core/secrets.js';
import { CSRF_HEADER } from '../src/http/csrf.js';
import { DatabaseBlobStore, openBlobStore, type BlobStore } from '../src/core/blobs/index.js';
import { S3BlobStore } from '../src/core/blobs/s3-blob-store.js';
import { InProcessEventBus } from '../src/core/events/index.js';
import { startS3, type S3Server } from '../../../test-support/s3.js';
import { apiPath } from './_client.js';

/** Runs `fn` when the current test ends, or when the file ends if called outside a test. */
export function cleanup(fn: () => unknown): void {
  // Asked, not inferred from expect's state: files share a worker (isolate: false), and that state outlives a file.
  try {
    onTestFinished(async () => void (await fn()));
  } catch {
    afterAll(async () => void (await fn()));
  }
}

/**
 * A fresh, migrated database for one test file: a copy of the PGlite template, or a new
 * PostgreSQL database on the server DATABASE_URL points at (dropped when the file ends).
 */
/**
 * A fresh, migrated database on the PostgreSQL server at `serverUrl`, dropped after the file's tests; its URL too,
 * so several "processes" of one test can open their own pools on it.
 */
export async function freshPostgresDatabase(serverUrl: string): Promise<{ url: string; db: Db }> {
  const name = `mailroom_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: 'postgres', url: url.href });
  await migrate(db);
  cleanup(async () => {
    await db.destroy();
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  return { url: url.href, db };
}

export async function createTestDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url) return (await freshPostgresDatabase(url)).db;
  const template = process.env.MAILROOM_TEST_TEMPLATE;
  const pglite = template
    ? await PGlite.create({
        loadDataDir: new Blob([await fs.readFile(template)]),
        extensions: pgliteExtensions,
      })
    : await PGlite.create({ extensions: pgliteExtensions });
  const db = await openDatabase({ kind: 'pglite-instance', pglite });
  if (!template) await migrate(db);
  cleanup(() => db.destroy());
  return db;
}

export async function testConfig(env: Record<string, string> = {}): Promise<Config> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-test-'));
  cleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  return loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://mailroom.localhost',
    LOG_LEVEL: 'silent',
    // A test sends at once unless it is about the undo hold (it sets undo_send_seconds itself).
    UNDO_SEND_DEFAULT_SECONDS: '0',
    ...env,
  });
}

let fileS3: Promise<S3Server> | undefined;

/** The test file's own S3 server (s3rver on loopback), started on first use and stopped when the file ends. */
export function testS3(): Promise<S3Server> {
  if (!fileS3) {
    fileS3 = startS3();
    afterAll(async () => (await fileS3!).stop());
  }
  return fileS3;
}

/**
 * The blob store a test deployment opens, as main.ts does (config.blobs). With MAILROOM_TEST_BLOB_STORE=s3 in the
 * environment every test file that uses it runs on S3 instead: the file's own s3rver, and every blob there, even the
 * small ones the database keeps otherwise, so each blob path of the tests goes through S3
 * (`MAILROOM_TEST_BLOB_STORE=s3 npx vitest run --project server apps/server/test/attachments.test.ts`).
 */
export async function testBlobStore(db: Db, config: Pick<Config, 'dataDir' | 'blobs'>): Promise<BlobStore> {
  const root = path.join(config.dataDir, 'blobs');
  if (process.env.MAILROOM_TEST_BLOB_STORE !== 's3') return await openBlobStore(db, root, config.blobs.s3);
  if (config.blobs.s3) return await openBlobStore(db, root, config.blobs.s3);
  const s3 = new S3BlobStore((await testS3()).settings, root);
  cleanup(() => s3.close());
  return new DatabaseBlobStore(db, s3, 0);
}

export async function createTestApp(
  opts: {
    db?: Db;
    /** Another app's blob store: two processes of one deployment share their blobs as they share the database. */
    blobs?: BlobStore;
    env?: Record<string, string>;
    logger?: FastifyServerOptions['logger'];
    /** The wallet (default: the deployment's, the embedded sandbox unless env sets WALLET_API_URL). */
    wallet?: WalletGateway;
    /** The invoice purposes (default: the app's); a test registers a purpose of its own on them. */
    invoicePurposes?: InvoicePurposes;
  } = {},
) {
  const db = opts.db ?? (await createTestDb());
  const config = await testConfig(opts.env);
  const blobs = opts.blobs ?? (await testBlobStore(db, config));
  const events = new InProcessEventBus();
  const wallet = opts.wallet ?? openWalletGateway(config, db);
  const invoicePurposes = opts.invoicePurposes ?? appInvoicePurposes(events);
  const secrets = generateSecrets();
  const app = await buildApp(
    { config, db, secrets, blobs, events, wallet, invoicePurposes },
    { logger: opts.logger ?? false },
  );
  cleanup(() => app.close());
  return { app, db, config, blobs, events, wallet, invoicePurposes, secrets };
}

/** A tiny cookie jar over inject, enough to walk redirects like a browser. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** The client's address as the server sees it, for every request (default 127.0.0.1). */
  remoteAddress: string | undefined;
  constructor(
    private readonly app: FastifyInstance,
    private readonly origin = 'http://mailroom.localhost',
  ) {}

  private store(response: LightMyRequestResponse) {
    for (const c of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH',
    url: string,
    opts: {
      json?: unknown;
      form?: Record<string, string>;
      /** A raw body, sent as it is with the content-type of `headers`. */
      body?: string | Buffer;
      headers?: Record<string, string>;
      csrf?: boolean;
      /** The client's address as the server sees it (default 127.0.0.1). */
      remoteAddress?: string;
    } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {
      host: new URL(this.origin).host,
      cookie: this.cookieHeader(),
      ...opts.headers,
    };
    if (method !== 'GET' && opts.csrf !== false) {
      headers[CSRF_HEADER] = '1';
      headers.origin ??= this.origin;
    }
    let payload: string | Buffer | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(opts.form).toString();
    } else if (opts.body !== undefined) {
      payload = opts.body;
    }
    const target = url.startsWith('http') ? new URL(url) : new URL(url, this.origin);
    const response = await this.app.inject({
      method,
      url: target.pathname + target.search,
      headers,
      payload,
      ...((opts.remoteAddress ?? this.remoteAddress)
        ? { remoteAddress: opts.remoteAddress ?? this.remoteAddress }
        : {}),
    });
    this.store(response);
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, { headers });
  }

  /** GETs and follows redirects within our origin; returns the final response and the URL it came from. */
  async follow(url: string): Promise<{ response: LightMyRequestResponse; url: string }> {
    let current = url;
    for (let i = 0; i < 15; i++) {
      const response = await this.get(current);
      const location = response.headers.location;
      if (response.statusCode < 300 || response.statusCode >= 400 || !location)
        return { response, url: current };
      current = new URL(String(location), new URL(current, this.origin)).href;
    }
    throw new Error('too many redirects');
  }
}

/** Signs up at the embedded IdP and completes single sign-on, like a person in a browser. */
export async function signUpAndSignIn(
  app: FastifyInstance,
  name = 'Ann Lee',
  redirect = '/mail',
  /** The passport level picked on the sign-up page (unset: the page's default, formal). */
  passportLevel?: string,
) {
  const browser = new Browser(app);
  const { response: signInPage, url: interactionUrl } = await browser.follow(
    apiPath('signIn', { query: { redirect } }),
  );
  if (!signInPage.body.includes('name="memberId"')) throw new Error(`no sign-in page at ${interactionUrl}`);
  const uid = new URL(interactionUrl).pathname.split('/')[3]!;
  const signedUp = await browser.request('POST', `/idp/interaction/${uid}/signup`, {
    form: { name, password: 'correct horse', ...(passportLevel ? { passportLevel } : {}) },
    csrf: false,
  });
  const memberId = /data-testid="new-member-id">(\d{12})</.exec(signedUp.body)?.[1];
  const continueUrl = /class="button" href="([^"]+)"/.exec(signedUp.body)?.[1]?.replaceAll('&amp;', '&');
  if (!memberId || !continueUrl)
    throw new Error(`sign-up failed: ${signedUp.statusCode} ${signedUp.body.slice(0, 300)}`);
  const { url: landedOn } = await browser.follow(continueUrl);
  return { browser, memberId, landedOn: new URL(landedOn, 'http://mailroom.localhost') };
}

/**
 * Every blob a deployment holds, as its store gives it back: the small ones kept (compressed) in the database's
 * `blobs` table and the larger ones in its folder or bucket (list()). For tests that look for what must not be stored.
 */
export async function storedBlobs(db: Db, blobs: BlobStore): Promise<{ hash: string; bytes: Buffer }[]> {
  const hashes = new Set(
    (await sql<{ hash: string }>`select hash from blobs`.execute(db)).rows.map((r) => r.hash),
  );
  for await (const { hash } of blobs.list()) hashes.add(hash);
  return Promise.all([...hashes].map(async (hash) => ({ hash, bytes: await blobs.get(hash) })));
}

/** The database as a migration's `up` takes it (untyped: a migration knows no schema, as kysely's Migrator passes it). */
export const asMigrationDb = (db: Db): Kysely<unknown> => db as unknown as Kysely<unknown>;
