/**
 * How a Sieve mailbox name names one of the account's folders. Folder names are dotted paths under the INBOX
 * namespace (`INBOX.Work.Invoices`, see mail's folder tree); a script may name a folder as that path, or without
 * the `INBOX.` prefix, with `.` or `/` between levels (`Work/Invoices`). `INBOX` in any case is the Inbox. Names
 * compare without case, as the folders' unique index does. Pure.
 */
export interface NamedFolder {
  id: number;
  name: string;
}

/** The folder name (path) a Sieve mailbox name stands for. */
export function folderPathOf(mailbox: string): string {
  const path = mailbox.trim().replace(/\//g, '.');
  if (path.toUpperCase() === 'INBOX') return 'INBOX';
  if (/^INBOX\./i.test(path)) return `INBOX.${path.slice(6)}`;
  return `INBOX.${path}`;
}

export function findFolder<F extends NamedFolder>(folders: readonly F[], mailbox: string): F | undefined {
  const path = folderPathOf(mailbox).toLowerCase();
  return folders.find((f) => f.name.toLowerCase() === path);
}
