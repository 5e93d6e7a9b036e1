import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { sql } from 'kysely';
import type { ImapFlow } from 'imapflow';
import { collectorFolderName } from '@mailroom/protocol';
import type { Db } from '../src/core/db/index.js';
import type { BlobStore } from '../src/core/blobs/index.js';
import { InProcessEventBus } from '../src/core/events/index.js';
import { AddressPolicy, openDnsResolver } from '../src/core/net/index.js';
import {
  collectorView,
  connectImap,
  imapErrorCode,
  runCollectorPass,
  type CollectorImportDeps,
} from '../src/collectors/index.js';
import { sealCollectorPassword } from '../src/collectors/collector-password.js';
import { COLLECTOR_JOB } from '../src/collectors/collector-sync.js';
import { enqueueJob } from '../src/core/jobs/index.js';
import { cleanup, testBlobStore } from './_util.js';

export const passwordSecret = 'collectors-test-secret';

/** The deployment's blob settings when nothing asks for S3. */
const noS3 = { store: 'fs' as const, s3: null, gcGraceMs: 0 };

/** The import engine's deps on a test database, signing in only to loopback (the policy's named exception). */
export async function importDeps(db: Db, overrides: Partial<CollectorImportDeps> = {}) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-collectors-'));
  cleanup(() => fs.rm(dir, { recursive: true, force: true }));
  const blobs: BlobStore = overrides.blobs ?? (await testBlobStore(db, { dataDir: dir, blobs: noS3 }));
  const events = new InProcessEventBus();
  const net = {
    dns: openDnsResolver(['127.0.0.1']),
    policy: new AddressPolicy(['127.0.0.1']),
    timeoutMs: 5000,
  };
  const deps: CollectorImportDeps = {
    db,
    blobs,
    events,
    log: pino({ level: 'silent' }),
    settings: { pollMinutes: 5, messageMaxBytes: 2_000_000, authFailuresToStop: 3 },
    mailDomain: 'mailroom.test',
    passwordSecret,
    connect: (server, auth) => connectImap(server, auth, net),
    errorCode: imapErrorCode,
    view: collectorView,
    owner: 'test-engine',
    backoffBaseMs: 20,
    backoffCapMs: 100,
    ...overrides,
  };
  return deps;
}

export async function addCollector(
  db: Db,
  accountId: number,
  server: { port: number },
  login: string,
  password: string,
  extra: { apply_filters?: boolean } = {},
) {
  const email = `${login}@remote.test`;
  return db
    .insertInto('collectors')
    .values({
      account_id: accountId,
      email,
      login,
      host: '127.0.0.1',
      port: server.port,
      security: 'none',
      password_sealed: sealCollectorPassword(passwordSecret, password),
      folder_name: collectorFolderName(email),
      ...extra,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .then(async (row) => {
      // As the collectors service does: its job, due when the collector is.
      await enqueueJob(db, { kind: COLLECTOR_JOB, key: String(row.id) });
      return row;
    });
}

/** Makes the collector due now and runs passes until no collector is due (as the job would, minus the waiting). */
export async function syncNow(deps: CollectorImportDeps, collectorId: number, maxPasses = 5) {
  await deps.db
    .updateTable('collectors')
    .set({ next_sync_at: sql<Date>`now()` })
    .where('id', '=', collectorId)
    .execute();
  await enqueueJob(deps.db, { kind: COLLECTOR_JOB, key: String(collectorId) });
  for (let i = 0; i < maxPasses && (await runCollectorPass(deps)); i++);
  return deps.db.selectFrom('collectors').selectAll().where('id', '=', collectorId).executeTakeFirstOrThrow();
}

export function testMessage(tag: string, i: number, date: Date, extra = ''): Buffer {
  return Buffer.from(
    [
      'From: Sender <sender@example.org>',
      'To: ivan@remote.test',
      `Subject: ${tag} ${i}`,
      `Message-ID: <${tag.replace(/\s/g, '_')}.${i}@remote.test>`,
      `Date: ${date.toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Message ${i} of ${tag}. ${extra}`,
      '',
    ].join('\r\n'),
  );
}

/** Flags of message i in the tests' pattern: every 3rd seen, every 7th flagged, every 11th answered. */
export function flagsOf(i: number): string[] {
  return [
    ...(i % 3 === 0 ? ['\\Seen'] : []),
    ...(i % 7 === 0 ? ['\\Flagged'] : []),
    ...(i % 11 === 0 ? ['\\Answered'] : []),
  ];
}

export const dateOf = (i: number) => new Date(Date.UTC(2021, 0, 1) + i * 3600_000);

/** Appends `count` messages of the pattern to a remote folder, a few commands in flight at once. */
export async function fillFolder(client: ImapFlow, folder: string, tag: string, count: number, from = 1) {
  for (let start = from; start < from + count; start += 25) {
    const jobs = [];
    for (let i = start; i < Math.min(start + 25, from + count); i++)
      jobs.push(
        client.append(folder, testMessage(tag, i, dateOf(i)), flagsOf(i), new Date(Date.UTC(2024, 5, 1))),
      );
    await Promise.all(jobs);
  }
}

/** The account's messages under a collector folder: per local folder name, with their flags and dates. */
export async function importedMessages(db: Db, accountId: number, base: string) {
  return db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .select([
      'folders.name as folder',
      'messages.id',
      'messages.subject',
      'messages.message_id',
      'messages.seen',
      'messages.flagged',
      'messages.answered',
      'messages.received_at',
    ])
    .where('messages.account_id', '=', accountId)
    .where(sql<boolean>`left(folders.name, ${[...base].length + 1}) = ${base + '.'}`)
    .execute();
}
