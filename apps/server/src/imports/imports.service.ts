import path from 'node:path';
import type { MailImport } from '@mailroom/protocol';
import { requireAccount } from '../accounts/index.js';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { enqueueJob, wakeJobs } from '../core/jobs/index.js';
import type { ImportFile } from './import-source.js';
import { findMailImport, insertMailImport, listMailImports, toMailImport } from './imports.repository.js';

/** The job queue's kind for a mail import (key: the import's id): the whole import is one run under a renewed lease. */
export const MAIL_IMPORT_JOB = 'mail-import';

export interface StartImportInput {
  /** The file: on the server's disk (the CLI) or in the blob store (a compose upload's blob, a chunked upload's parts). */
  file: ImportFile;
  /** The chunked upload the parts are of: removed when the import ends. */
  uploadId?: number;
  /** What the member calls it (its upload name): shown in the list. */
  name?: string;
  options?: { filters?: boolean };
}

/**
 * Queues the import of a file already on the server into the account and answers it at once; the mail-import job
 * does it (runMailImport). The file stays where it is until the import ends (a blob is kept from the blob
 * collector by the import's row while it is unfinished).
 */
export async function startImport(db: Db, accountId: number, input: StartImportInput): Promise<MailImport> {
  await requireAccount(db, accountId);
  const name = input.name ?? ('path' in input.file ? path.basename(input.file.path) : 'upload');
  const row = await transact(db, async (trx) => {
    const inserted = await insertMailImport(trx, {
      account_id: accountId,
      file_name: name.slice(0, 255),
      source_path: 'path' in input.file ? path.resolve(input.file.path) : null,
      source_blob: 'blobHash' in input.file ? input.file.blobHash : null,
      source_upload: input.uploadId ?? null,
      filters: input.options?.filters ?? false,
    });
    await enqueueJob(trx, { kind: MAIL_IMPORT_JOB, key: String(inserted.id) });
    return inserted;
  });
  wakeJobs(MAIL_IMPORT_JOB);
  return toMailImport(row);
}

export async function getMailImport(db: Db, accountId: number, id: number): Promise<MailImport> {
  const row = await findMailImport(db, accountId, id);
  if (!row) throw new DomainError('entity_not_found');
  return toMailImport(row);
}

export async function mailImports(db: Db, accountId: number): Promise<MailImport[]> {
  return (await listMailImports(db, accountId)).map(toMailImport);
}
