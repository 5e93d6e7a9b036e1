import type { Collector } from './schemas/collectors.js';
import type { ContactImportResponse } from './schemas/contacts.js';
import type { FilterRun } from './schemas/filters.js';
import type { MailImport } from './schemas/mail-imports.js';

/**
 * Events on the websocket (/ws), per account (SPEC §4): new, store and move refresh the active
 * folder; updateMailbox carries the folder's unseen count; updateMailboxList reloads the folders.
 */
export type MailEvent =
  /** Messages arrived in a folder. */
  | { event: 'new'; folder_id: number; uids: number[] }
  /** Flags or labels of messages changed. */
  | { event: 'store'; folder_id: number; uids: number[] }
  /** Messages left a folder (moved elsewhere, or deleted when to_folder_id is null). */
  | { event: 'move'; folder_id: number; to_folder_id: number | null; uids: number[] }
  /** A folder's counters changed. */
  | { event: 'updateMailbox'; folder_id: number; unseen: number; total: number }
  /** Folders were created, renamed, moved or deleted. */
  | { event: 'updateMailboxList' }
  /** A filter run over a folder (POST filters/apply) progressed, finished or failed. */
  | { event: 'filterRun'; run: FilterRun }
  /** A contacts import (POST contacts/import) progressed, finished or failed. */
  | { event: 'contactImport'; import: ContactImportResponse }
  /** A mail import progressed (once per batch), finished or failed. */
  | { event: 'mailImport'; import: MailImport }
  /** A collector's import progressed, finished, failed or changed state (at most a few times a second). */
  | { event: 'collector'; collector: Collector }
  /** A message waiting in Scheduled was scheduled, sent or cancelled (an Undo in one tab closes the box in another). */
  | { event: 'scheduledSend'; id: number; state: 'waiting' | 'sent' | 'cancelled' }
  /**
   * Something of the account other than mail changed (in another tab, or by the server): the client reads that part
   * again. Sent to full sessions only.
   */
  | { event: 'updateAccount'; part: AccountPart };
/** What an updateAccount event says changed. */
export const accountParts = [
  'settings',
  'profiles',
  'contacts',
  'groups',
  'labels',
  'filters',
  /** The aliases and their payments (user/aliases, user/aliases/paid; the account's aliases). */
  'aliases',
  /** The security settings: password, names, grants (user/settings/security). */
  'security',
  /** Mailboxes shared with this member changed (user/shared-mailboxes). */
  'shared',
  /** The account's domains, their addresses, DKIM keys and delegations (user/domains…). */
  'domains',
  /** Addresses other members delegated to this one changed (user/delegated-emails). */
  'delegated',
  /** The account's collectors were created, changed or deleted (user/collectors). */
  'collectors',
  /** Support requests. */
  'support',
] as const;
export type AccountPart = (typeof accountParts)[number];

export type MailEventName = MailEvent['event'];

/**
 * Catching up after a gap (the page's data was read before its socket opened, or during a reconnect): the client
 * opens /ws?since=<server clock of its oldest data that may be stale> and may later send `{"since": n}` for data
 * read meanwhile; the server replays the account's events since then, then answers `caught_up` with the server
 * clock from which the socket receives every event, or `gap` when it cannot vouch for them all — then the client
 * reads its data again.
 */
export type LiveSyncFrame = { sync: 'caught_up'; at: number } | { sync: 'gap' };
