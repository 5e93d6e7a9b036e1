import { sql, type Kysely } from 'kysely';

/**
 * Folder management and list views.
 *
 * - UIDVALIDITY from one sequence: a folder deleted and re-created under the same name within the
 *   same second would otherwise get the same UIDVALIDITY while its UIDs restart at 1, which IMAP
 *   forbids. The sequence starts at the current epoch second (the usual convention, and above
 *   every value handed out so far) and only grows.
 * - Folder names unique per account regardless of case, so "Work" and "work" never sit side by
 *   side (the exact-case unique constraint of 001 stays for IMAP lookups).
 * - Chains: the newest message of a thread in a folder is found through (folder_id, thread_id).
 * - Alias views: a folder page filtered by alias uses its own ordered index instead of scanning
 *   the folder; main-address mail (alias_id null) is the bulk and reads the folder index directly.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ start: number }>`
    select greatest(extract(epoch from now())::int, coalesce(max(uidvalidity), 0) + 1) as start from folders
  `.execute(db);
  const start = Number(rows[0]?.start ?? Math.floor(Date.now() / 1000));
  await sql`
    create sequence folder_uidvalidity_seq as integer start with ${sql.raw(String(start))};
    create unique index folders_account_name_ci on folders (account_id, lower(name));
    create index messages_folder_thread on messages (folder_id, thread_id, received_at desc, id desc);
    create index messages_folder_alias on messages (folder_id, alias_id, received_at desc, id desc)
      where alias_id is not null;
  `.execute(db);
}
