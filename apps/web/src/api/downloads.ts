/**
 * The addresses of downloads the server streams (exports, a message's source), and starting one: imported by the
 * lazily loaded menus and sections that offer them, never by the shell (DESIGN §5: its first load ≤ 110 KB).
 */
import type { ExportFormat, MessageQuery } from '@mailroom/protocol';
import { routeUrl, routes } from './client';

/** What an export takes: a folder (narrowed to one address or not), a label, a search's matches, the mailbox. */
export type ExportSubject =
  | { kind: 'folder'; id: number; aliasId?: 'all' | number }
  | { kind: 'label'; id: number }
  | { kind: 'search'; query: MessageQuery }
  | { kind: 'mailbox' };

/** The address of an export's download (the server streams it: GET export/…). */
export function exportUrl(subject: ExportSubject, format: ExportFormat): string {
  switch (subject.kind) {
    case 'folder':
      return routeUrl(routes.exportFolder, {
        params: { folder_id: subject.id },
        query: { format, a_id: subject.aliasId === 'all' ? undefined : subject.aliasId },
      });
    case 'label':
      return routeUrl(routes.exportLabel, { params: { label_id: subject.id }, query: { format } });
    case 'search': {
      // The search itself, not the page on screen: every match goes.
      const { page: _page, limit: _limit, ...query } = subject.query;
      return routeUrl(routes.exportSearch, { query: { format, q: JSON.stringify(query) } });
    }
    case 'mailbox':
      return routeUrl(routes.exportMailbox, { query: { format } });
  }
}

/** A message's bytes as stored, as a `.eml` download. */
export function messageSourceUrl(folderId: number, uid: number): string {
  return routeUrl(routes.messageSource, { params: { folder_id: folderId, uid } });
}

/** Starts a download the way a link with `download` does: the browser saves the file, the page stays. */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
