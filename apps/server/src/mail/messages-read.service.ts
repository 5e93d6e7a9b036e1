import type {
  FolderSystem,
  ListQuery,
  Mail,
  MailListItem,
  MailListResponse,
  ThreadMember,
} from '@mailroom/protocol';
import { defaultSettings, routePaths, routeUrl } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import type { StoredAttachment } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { htmlTooComplex, sanitiseMessageHtml } from './html-sanitise.js';
import type { ImageUrlSigner } from './image-proxy/index.js';
import { toListItem } from './list-items.js';
import { messageDate } from './message-date.js';
import { withSavedSearchLabels } from './saved-search-labels.js';
import {
  countMessages,
  countThreads,
  folderAndSettings,
  folderPage,
  messageByMessageId,
  messageByUid,
  threadMembers,
  THREAD_MEMBERS_MAX,
  type FolderPageQuery,
  type MessageRow,
  type ThreadMemberRow,
} from './messages-read.repository.js';
import { normaliseMessageId, snoozedUntil, type MessageVerdict, type Scope } from '../mailbox/index.js';
import { senderTrust } from './sender-trust.js';
import { threadCount } from './thread-counts.js';
import { narrowScope, scopeOf } from '../addresses/index.js';
import { getSettings, type Principal } from '../accounts/index.js';
import { isKnownSender } from '../contacts/index.js';

function toThreadMember(row: ThreadMemberRow): ThreadMember {
  return {
    id: row.id,
    uid: row.uid,
    folder_id: row.folder_id,
    subject: row.subject,
    from: row.from_email ? [{ email: row.from_email, name: row.from_name }] : [],
    created_at: messageDate(row.sent_at && new Date(row.sent_at), new Date(row.received_at)).toISOString(),
    flags: { seen: row.seen, flagged: row.flagged, draft: row.draft },
    labels: row.labels.map(Number),
  };
}

/** The other members of each message's chain in the session's view, newest first, across folders. */
async function attachThreads<T extends MailListItem>(
  db: Db,
  accountId: number,
  view: Scope,
  items: T[],
): Promise<T[]> {
  const members = await threadMembers(db, accountId, [...new Set(items.map((i) => i.thread_id))], view);
  const byThread = new Map<number, ThreadMemberRow[]>();
  for (const m of members) {
    const list = byThread.get(m.thread_id);
    if (list) list.push(m);
    else byThread.set(m.thread_id, [m]);
  }
  return items.map((item) => ({
    ...item,
    threads: (byThread.get(item.thread_id) ?? [])
      .filter((m) => m.id !== item.id)
      .slice(0, THREAD_MEMBERS_MAX)
      .map(toThreadMember),
  }));
}

/**
 * A page of a folder (SPEC §7 GET {list path}). `total` counts the rows the list pages through
 * (threads when message_thread is on), `all` every message in the view.
 */
export async function listFolderMessages(
  db: Db,
  principal: Principal,
  folderId: number,
  query: ListQuery,
): Promise<MailListResponse> {
  const { accountId } = principal;
  const folder = await folderAndSettings(db, accountId, folderId);
  if (!folder) throw new DomainError('entity_not_found');
  const settings = { ...defaultSettings, ...folder.settings };
  // Threads show the members the session may see; the list itself may be narrowed further by a_id.
  const view = await scopeOf(db, principal);
  const scope = await narrowScope(db, accountId, view, query.a_id);
  const limit = query.limit ?? settings.per_page;
  const page: FolderPageQuery = {
    accountId,
    folderId,
    scope,
    limit,
    offset: (query.page - 1) * limit,
    unreadFirst: settings.unread_first,
    threaded: settings.message_thread,
  };
  const [rows, all, threads] = await Promise.all([
    folderPage(db, page),
    countMessages(db, page, folder.total_count),
    page.threaded ? threadCount(db, folder, scope, () => countThreads(db, page)) : undefined,
  ]);
  const labelled = await withSavedSearchLabels(db, accountId, rows.map(toListItem));
  const items = await withSnoozedUntilIn(folder.system, db, labelled);
  return {
    messages: page.threaded ? await attachThreads(db, accountId, view, items) : items,
    total: threads ?? all,
    all,
  };
}

/** Remote images left out (false), or shown through the image proxy whose URLs this signer makes. */
export type ShowImages = false | ImageUrlSigner;

/**
 * What the reader asked for: images left out or shown (show_images=false, true), or, when it did not say, what the
 * account's image_display setting says (SPEC §4): 'always', 'never', or 'correspondent' — shown when the sender is
 * a contact or an address the owner has written to (a session held to one address never sees the address book, so
 * its 'correspondent' shows none).
 */
export type ImageChoice = ShowImages | { bySetting: ImageUrlSigner };

/** Whether HTML may reference anything remote (an absolute or scheme-relative URL where a resource is loaded). */
const mayLoadRemote = (html: string) =>
  /(?:src|srcset|background|poster|data)\s*=\s*["']?\s*(?:https?:)?\/\/|url\(\s*["']?\s*(?:https?:)?\/\/|@import/i.test(
    html,
  );

async function imagesFor(
  db: Db,
  principal: Principal,
  row: MessageRow,
  choice: ImageChoice,
): Promise<ShowImages> {
  if (choice === false || !('bySetting' in choice)) return choice;
  // Opening a message is a measured path: the setting and the sender's standing are read only when there is a remote
  // image to decide about (a plain-text message, or HTML with none, has nothing to show or hide).
  if (row.body_html === null || !mayLoadRemote(row.body_html)) return false;
  // Mail in Junk never loads remote images by itself (issue 30): the member asks (show_images=true).
  if (row.folder_system === 'junk') return false;
  const setting = (await getSettings(db, principal.accountId)).image_display ?? defaultSettings.image_display;
  if (setting === 'always') return choice.bySetting;
  if (setting !== 'correspondent' || principal.aliasEmail) return false;
  // Not a correspondent's images when the message's From failed DMARC: anyone can write a contact's address.
  const verdict = row.verdict as MessageVerdict | null;
  if (verdict?.auth?.dmarc.result === 'fail' && !verdict.auth.arc.trusted) return false;
  return (await isKnownSender(db, principal.accountId, row.addresses.from?.[0]?.email ?? ''))
    ? choice.bySetting
    : false;
}

/** The API path an inline or attached part of a message is downloaded from. */
export function attachmentUrl(attachmentId: number, folderId: number, uid: number): string {
  return routeUrl(routePaths.attachment, {
    params: { id: attachmentId },
    query: { message_uid: uid, folder_id: folderId },
  });
}

/** What an attachment is called when the message gives it no usable name. */
export function attachmentDisplayName(a: StoredAttachment): string {
  return a.name.trim() || `attachment-${a.id}`;
}

/** Messages in Snoozed say when they come back (a look-up only there: no other folder holds a snoozed message). */
async function withSnoozedUntilIn<T extends MailListItem>(
  system: FolderSystem | null,
  db: Db,
  items: T[],
): Promise<T[]> {
  if (system !== 'snoozed' || !items.length) return items;
  const until = await snoozedUntil(
    db,
    items.map((i) => i.id),
  );
  return items.map((i) => {
    const at = until.get(i.id);
    return at ? { ...i, snoozed_until: new Date(at).toISOString() } : i;
  });
}

async function toMail(
  db: Db,
  accountId: number,
  view: Scope,
  row: MessageRow,
  showImages: ShowImages,
  protectedDomains: readonly string[],
): Promise<Mail> {
  const [item] = await attachThreads(
    db,
    accountId,
    view,
    await withSnoozedUntilIn(
      row.folder_system,
      db,
      await withSavedSearchLabels(db, accountId, [toListItem(row)]),
    ),
  );
  const attachments = row.attachments;
  let content: string;
  let contentType: Mail['content_type'];
  let imagesBlocked = false;
  // A body too big or too deeply nested to sanitise in bounded time is shown as its text part.
  if (row.body_html !== null && !htmlTooComplex(row.body_html)) {
    const byCid = new Map(attachments.filter((a) => a.content_id).map((a) => [a.content_id!, a.id]));
    const sanitised = sanitiseMessageHtml(row.body_html, {
      showImages: showImages !== false,
      proxyUrl: (url) => (showImages === false ? '' : showImages.proxyUrl(url)),
      inlineUrl: (cid) => {
        const id = byCid.get(cid);
        return id === undefined ? undefined : attachmentUrl(id, row.folder_id, row.uid);
      },
    });
    content = sanitised.html;
    contentType = 'text/html';
    imagesBlocked = sanitised.imagesBlocked;
  } else {
    content = row.body_text;
    contentType = 'text/plain';
  }
  return {
    ...item!,
    content: Buffer.from(content, 'utf8').toString('base64'),
    content_type: contentType,
    attachments: attachments
      .filter((a) => !a.inline)
      .map((a) => ({ id: a.id, name: attachmentDisplayName(a), size: a.size })),
    images_blocked: imagesBlocked,
    message_id: row.message_id,
    trust: senderTrust(
      row.verdict as MessageVerdict | null,
      item!.fields.from[0],
      row.addresses.reply_to?.[0],
      protectedDomains,
    ),
  };
}

/** GET messages/{folder_id}/{uid}. Reading does not mark the message seen: the client asks for that. */
export async function readMessage(
  db: Db,
  principal: Principal,
  folderId: number,
  uid: number,
  images: ImageChoice,
  protectedDomains: readonly string[],
): Promise<Mail> {
  const view = await scopeOf(db, principal);
  const row = await messageByUid(db, principal.accountId, view, folderId, uid);
  if (!row) throw new DomainError('message_not_found');
  return toMail(
    db,
    principal.accountId,
    view,
    row,
    await imagesFor(db, principal, row, images),
    protectedDomains,
  );
}

/** GET messages?message_id=: the caller's newest copy (Inbox and Sent may both hold one). */
export async function readMessageById(
  db: Db,
  principal: Principal,
  messageId: string,
  images: ImageChoice,
  protectedDomains: readonly string[],
): Promise<Mail> {
  const id = normaliseMessageId(messageId);
  const view = await scopeOf(db, principal);
  const row = id ? await messageByMessageId(db, principal.accountId, view, id) : undefined;
  if (!row) throw new DomainError('message_not_found');
  return toMail(
    db,
    principal.accountId,
    view,
    row,
    await imagesFor(db, principal, row, images),
    protectedDomains,
  );
}
