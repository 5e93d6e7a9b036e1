import {
  defaultSettings,
  uncheckedTrust,
  type AccessResponse,
  type Account,
  type Folder,
  type Label,
  type Mail,
  type MailListItem,
  type Settings,
} from '@mailroom/protocol';
import { matchRoute } from './route-match';

/** The signed-in member the screen tests render for. */
export const testUser: AccessResponse = {
  email: 'ann@mailroom.test',
  member_id: '123456789012',
  name: 'Ann Lee',
  info: { alias: null },
};

/** testUser's account, with settings changed where a test needs it. */
export function testAccount(settings: Partial<Settings> = {}): Account {
  return {
    email: testUser.email,
    aliases: [],
    profiles: [],
    settings: { ...defaultSettings, ...settings },
    quota: { size: 512, limit: 1024 * 1024 },
    alias_accesses: [],
  };
}

/** A JSON answer, as the API sends it. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** An API error answer (SPEC §8 shape): status, the i8s code and a message. */
export function apiError(status: number, code: string, message = code): Response {
  return json({ error: { message, meta: { code: status, i8s: code } } }, status);
}

/** A top-level folder without subfolders. */
export function folder(
  id: number,
  name: string,
  system: Folder['system'],
  counts: { total?: number; unread?: number } = {},
): Folder {
  return {
    id,
    name,
    system,
    unread: counts.unread ?? 0,
    total: counts.total ?? 0,
    subfolders: [],
    isCollector: false,
    isSubCollector: false,
  };
}

/** Message `uid` of folder 11 as the list shows it: 'Subject {uid}' from 'Sender {uid}', seen, no labels. */
export function listItem(uid: number, fields: Partial<MailListItem> = {}): MailListItem {
  return {
    id: uid,
    uid,
    folder_id: 11,
    subject: `Subject ${uid}`,
    flags: { seen: true, flagged: false, draft: false },
    labels: [],
    fields: {
      from: [{ name: `Sender ${uid}`, email: `s${uid}@example.test` }],
      to: [],
      cc: [],
      bcc: [],
      'reply-to': [],
    },
    preview: `Preview ${uid}`,
    has_attachments: false,
    encrypted: false,
    size: 10,
    created_at: '2026-11-20T10:00:00Z',
    thread_id: uid,
    ...fields,
  };
}

/** A listed message as the reader opens it: `body` as plain text, no attachments, its images not blocked. */
export function openedMail(row: MailListItem, body: string): Mail {
  return {
    ...row,
    content: btoa(body),
    content_type: 'text/plain',
    attachments: [],
    images_blocked: false,
    message_id: null,
    trust: uncheckedTrust,
  };
}

/** A server error (500) that comes after 100 ms, for a change the screen has already shown and must take back. */
export async function failSlowly(): Promise<Response> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  return apiError(500, 'internal_error', 'boom');
}

/** What the shell asks for before any mail: the session (user, account, rid), the folders and the labels. */
export interface ShellData {
  user?: AccessResponse;
  account?: Account;
  folders: Folder[];
  labels?: Label[];
}

/** The server's answer to one of the shell's start-up requests, or null for any other URL. */
export function answerShell(url: string, data: ShellData): Response | null {
  const user = data.user ?? testUser;
  switch (matchRoute('GET', url)?.route) {
    case 'access':
      return json(user);
    case 'rids':
      return json({ rid: user.member_id });
    case 'account':
      return json(data.account ?? testAccount());
    case 'folders':
      return json({ folders: data.folders });
    case 'labels':
      return json({ labels: data.labels ?? [] });
    default:
      return null;
  }
}

export const notFound = () => apiError(404, 'not_found', 'Not found');
