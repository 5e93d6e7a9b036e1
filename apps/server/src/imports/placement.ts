import type { FolderSystem } from '@mailroom/protocol';
import { nestedFolderPath } from '../mailbox/index.js';

/**
 * Where an imported message goes (pure): a system folder or a folder path under the INBOX namespace, its labels by
 * name, and what its Gmail labels say of its flags.
 */
export interface Placement {
  folder: { system: FolderSystem } | { path: string };
  labels: string[];
  /** Set by Google Takeout's labels (Unread, Starred); otherwise the header's flags decide. */
  seen?: boolean;
  flagged?: boolean;
}

/** Gmail's system labels that say nothing of where a message goes (Opened is the absence of Unread). */
const IGNORED_GMAIL = new Set(['important', 'opened', 'archived', 'chat', 'all mail']);

/** Where Takeout mail with none of Gmail's folder labels (archived mail) goes. */
export const ARCHIVE_FOLDER = 'INBOX.Archive';

/**
 * Google Takeout's X-Gmail-Labels: Trash, Spam (→ Junk), Drafts, Inbox and Sent pick the folder, in that order when
 * a message carries several; mail with none of them (archived) goes to Archive. Starred → flagged, Unread → unseen
 * (else seen). "Category …", Important, Opened, Archived and Chat are Gmail's own and are dropped; every other label
 * becomes a label of ours.
 */
export function gmailPlacement(labels: string[]): Placement {
  const has = new Set(labels.map((l) => l.toLowerCase()));
  const system: FolderSystem | null = has.has('trash')
    ? 'trash'
    : has.has('spam')
      ? 'junk'
      : has.has('drafts') || has.has('draft')
        ? 'draft'
        : has.has('inbox')
          ? 'inbox'
          : has.has('sent')
            ? 'sent'
            : null;
  const own = labels.filter((l) => {
    const lower = l.toLowerCase();
    return (
      !['trash', 'spam', 'drafts', 'draft', 'inbox', 'sent', 'starred', 'unread'].includes(lower) &&
      !IGNORED_GMAIL.has(lower) &&
      !/^category /i.test(l)
    );
  });
  return {
    folder: system ? { system } : { path: ARCHIVE_FOLDER },
    labels: [...new Set(own.map((l) => l.trim().slice(0, 100)))].filter(Boolean),
    seen: !has.has('unread'),
    flagged: has.has('starred'),
  };
}

/** Folder names of archives (Thunderbird, Apple Mail, Outlook, Gmail) that mean one of our system folders. */
const SYSTEM_NAMES: Record<string, FolderSystem> = {
  inbox: 'inbox',
  sent: 'sent',
  'sent items': 'sent',
  'sent mail': 'sent',
  'sent messages': 'sent',
  drafts: 'draft',
  draft: 'draft',
  trash: 'trash',
  'deleted items': 'trash',
  'deleted messages': 'trash',
  junk: 'junk',
  spam: 'junk',
  'junk e-mail': 'junk',
  'junk email': 'junk',
};

/**
 * The folder of an archive entry from its folders: none → the Inbox; one named as a system folder (Sent, Trash,
 * Junk…) → that folder; else a folder path under the INBOX namespace (an Inbox at the top is the namespace itself),
 * each name made a valid segment (dots, slashes and controls replaced, at most 100 characters) and levels deeper than
 * FOLDER_DEPTH_MAX joined into the last one.
 */
export function archivePlacement(folders: string[]): Placement {
  let parts = folders.map((f) => f.trim()).filter(Boolean);
  if (parts.length && SYSTEM_NAMES[parts[0]!.toLowerCase()] === 'inbox') parts = parts.slice(1);
  if (!parts.length) return { folder: { system: 'inbox' }, labels: [] };
  const system = parts.length === 1 ? SYSTEM_NAMES[parts[0]!.toLowerCase()] : undefined;
  if (system) return { folder: { system }, labels: [] };
  return { folder: { path: nestedFolderPath('INBOX', parts) }, labels: [] };
}
