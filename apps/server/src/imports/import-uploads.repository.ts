import { sql, type Selectable } from 'kysely';
import { IMPORT_UPLOAD_PART_BYTES, type ImportUpload } from '@mailroom/protocol';
import { type Database, type Db, ownRow, type Trx } from '../core/db/index.js';

/** mail_import_uploads and mail_import_upload_parts (migration 043): import files arriving in parts. */
export type ImportUploadRow = Selectable<Database['mail_import_uploads']> & { received: number };

export function toImportUpload(row: ImportUploadRow): ImportUpload {
  return {
    id: Number(row.id),
    file_name: row.file_name,
    size: Number(row.size),
    received: Number(row.received),
    part_bytes: IMPORT_UPLOAD_PART_BYTES,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The account's upload with the bytes of its parts received so far. */
export async function findImportUpload(
  db: Db | Trx,
  accountId: number,
  id: number,
): Promise<ImportUploadRow | undefined> {
  return db
    .selectFrom('mail_import_uploads as u')
    .selectAll('u')
    .select((eb) =>
      eb
        .selectFrom('mail_import_upload_parts as p')
        .select(sql<number>`coalesce(sum(p.size), 0)::bigint`.as('received'))
        .whereRef('p.upload_id', '=', 'u.id')
        .as('received'),
    )
    .where(ownRow(id, accountId))
    .$narrowType<{ received: number }>()
    .executeTakeFirst();
}

/** Uploads of the account that no import has taken yet. */
export async function countOpenImportUploads(trx: Trx, accountId: number): Promise<number> {
  const row = await trx
    .selectFrom('mail_import_uploads as u')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('u.account_id', '=', accountId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('mail_imports as i').select('i.id').whereRef('i.source_upload', '=', 'u.id'))),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertImportUpload(
  trx: Trx,
  values: { account_id: number; file_name: string; size: number },
): Promise<ImportUploadRow> {
  const row = await trx
    .insertInto('mail_import_uploads')
    .values(values)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, received: 0 };
}

/** Stores a part (a part sent again replaces the one before) and marks the upload as just active. */
export async function saveImportUploadPart(
  trx: Trx,
  part: { upload_id: number; part: number; size: number; blob_hash: string },
): Promise<void> {
  await trx
    .insertInto('mail_import_upload_parts')
    .values(part)
    .onConflict((oc) =>
      oc.columns(['upload_id', 'part']).doUpdateSet({ size: part.size, blob_hash: part.blob_hash }),
    )
    .execute();
  await trx
    .updateTable('mail_import_uploads')
    .set({ updated_at: sql<Date>`now()` })
    .where('id', '=', part.upload_id)
    .execute();
}

/** How many parts are stored: the next to send (parts come in order; one sent again replaces its row). */
export async function countImportUploadParts(trx: Trx | Db, uploadId: number): Promise<number> {
  const row = await trx
    .selectFrom('mail_import_upload_parts')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('upload_id', '=', uploadId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The blobs of an upload's parts, in order: the file is their bytes one after the other. */
export async function importUploadBlobs(db: Db, uploadId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_import_upload_parts')
    .select('blob_hash')
    .where('upload_id', '=', uploadId)
    .orderBy('part')
    .execute();
  return rows.map((r) => r.blob_hash);
}

/** Removes the account's upload unless an import has taken it; answers whether it did. */
export async function deleteImportUpload(db: Db | Trx, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('mail_import_uploads as u')
    .where('u.id', '=', id)
    .where('u.account_id', '=', accountId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('mail_imports as i').select('i.id').whereRef('i.source_upload', '=', 'u.id'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes the upload an import read, once that import has ended (its parts' blobs are then the collector's). */
export async function deleteUploadOfImport(trx: Trx | Db, importId: number): Promise<void> {
  await trx
    .deleteFrom('mail_import_uploads')
    .where('id', '=', (eb) =>
      eb.selectFrom('mail_imports').select('source_upload').where('id', '=', importId),
    )
    .execute();
}

/**
 * Removes the uploads last added to before `before` that no unfinished import reads (left by a member who went
 * away mid-upload, or uploaded and never started the import); their parts' blobs are then the collector's.
 */
export async function deleteStaleImportUploads(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('mail_import_uploads as u')
    .where('u.updated_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('mail_imports as i')
            .select('i.id')
            .whereRef('i.source_upload', '=', 'u.id')
            .where('i.state', 'in', ['queued', 'running']),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Which of `hashes` an upload's parts still hold (for the blob collector). */
export async function blobsOfImportUploads(db: Db, hashes: string[]): Promise<string[]> {
  if (!hashes.length) return [];
  const rows = await db
    .selectFrom('mail_import_upload_parts')
    .select('blob_hash')
    .distinct()
    .where('blob_hash', 'in', hashes)
    .execute();
  return rows.map((r) => r.blob_hash);
}

/** Serialises the account's upload bookkeeping (how many are open, which part comes next) for the transaction. */
export async function lockImportUploads(trx: Trx, accountId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`import-uploads:${accountId}`}::text, 0))`.execute(
    trx,
  );
}

/** Whether an import has taken the upload (it then belongs to that import until it ends). */
export async function importUploadTaken(db: Db | Trx, uploadId: number): Promise<boolean> {
  const row = await db
    .selectFrom('mail_imports')
    .select('id')
    .where('source_upload', '=', uploadId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
