import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { MailImport } from '@mailroom/protocol';
import { getMailImport, runMailImport, startImport, type MailImportDeps } from '../src/imports/index.js';
import type { TestApp } from './_actions.js';
import { cleanup } from './_util.js';

/** The running of an import for the import tests; the files' builders are test-support's (benches use them too). */
export { mbox, sha256, takeoutMbox, tarGz, zip } from '../../../test-support/mail-archives.js';

export async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-import-'));
  cleanup(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

export function importDeps(ctx: TestApp, extra: Partial<MailImportDeps> = {}): MailImportDeps {
  return { db: ctx.db, blobs: ctx.blobs, events: ctx.events, log: pino({ level: 'silent' }), ...extra };
}

/** Imports a file on the server's disk into the account, running the job through (main.ts runs it in a server). */
export async function importFile(
  ctx: TestApp,
  accountId: number,
  file: string,
  options: { filters?: boolean } = {},
): Promise<MailImport> {
  const started = await startImport(ctx.db, accountId, { file: { path: file }, options });
  while (await runMailImport(importDeps(ctx)));
  return getMailImport(ctx.db, accountId, started.id);
}
