import { loadFeatureTexts } from '../../i18n';
import { create } from 'zustand';
import type { ComposeMode, Mail, MailAddress } from '@mailroom/protocol';
import type { ComposeSnapshot } from './compose-init';

/** What the compose window was opened for (SPEC §4 modes 0–3, or a stored draft). */
export interface ComposeRequestOpen {
  mode: ComposeMode;
  /** The message answered or forwarded (modes 1–3). */
  source?: Mail;
  /** A message of the Drafts folder to continue. */
  draft?: { folder_id: number; uid: number };
  /** Who a new message starts with in To (a /mail?recipient= or ?group= link). */
  to?: readonly MailAddress[];
  /** Undo send: the window as it was sent, opened again (on `draft`, the copy the cancel put back in Drafts). */
  restore?: ComposeSnapshot;
}

interface ComposeState {
  /** The open window's request; null when no compose window is open. */
  open: (ComposeRequestOpen & { key: number }) | null;
  openCompose(request: ComposeRequestOpen): void;
  closeCompose(): void;
}

let nextKey = 1;

/**
 * Kept in the shell's initial bundle on purpose: it is tiny, and the buttons that open compose need it before the
 * compose window's chunk (TipTap) is loaded.
 */
export const useCompose = create<ComposeState>((set) => ({
  open: null,
  // A new key remounts the window: opening a reply while another message is open starts afresh.
  openCompose: (request) => set({ open: { ...request, key: nextKey++ } }),
  closeCompose: () => set({ open: null }),
}));

/** Load the compose chunk and its texts ahead of a click (hover or focus on a button that opens it). */
export const loadComposeWindow = () =>
  Promise.all([import('./compose-window'), loadFeatureTexts()]).then(([chunk]) => chunk);
