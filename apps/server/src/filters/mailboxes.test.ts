import { describe, expect, it } from 'vitest';
import { findFolder, folderPathOf } from './mailboxes.js';

const folders = [
  { id: 1, name: 'INBOX' },
  { id: 2, name: 'INBOX.Trash' },
  { id: 3, name: 'INBOX.Work' },
  { id: 4, name: 'INBOX.Work.Invoices' },
];

describe('a Sieve mailbox name read as a folder', () => {
  it('finds a folder by its path, with or without the INBOX prefix, by dots or slashes, in any case', () => {
    for (const name of ['Work/Invoices', 'Work.Invoices', 'INBOX.Work.Invoices', 'inbox/work/invoices'])
      expect(findFolder(folders, name)?.id).toBe(4);
    expect(findFolder(folders, 'inbox')?.id).toBe(1);
    expect(findFolder(folders, 'Trash')?.id).toBe(2);
    expect(findFolder(folders, 'Invoices')).toBeUndefined();
  });

  it('names a folder to create under the INBOX namespace', () => {
    expect(folderPathOf('Lists/dev')).toBe('INBOX.Lists.dev');
    expect(folderPathOf('INBOX')).toBe('INBOX');
    expect(folderPathOf('INBOX/Lists')).toBe('INBOX.Lists');
  });
});
