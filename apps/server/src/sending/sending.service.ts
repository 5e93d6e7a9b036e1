import type { ComposeRequestParsed, DraftResponse, MailEvent, Ok, SendResponse } from '@mailroom/protocol';
import { COMPOSE_MODE, defaultSettings } from '@mailroom/protocol';
import { getSettings, type Principal } from '../accounts/index.js';
import { transact, type Db } from '../core/db/index.js';
import { emit } from '../core/events/index.js';
import { isHostedDomain, scopeOf } from '../addresses/index.js';
import {
  checkAhead,
  discardDraft,
  parseMessage,
  putMessageBlobs,
  storeMessage,
  systemFolder,
  type ComposeSourceMessage,
} from '../mailbox/index.js';
import { DomainError } from '../core/errors.js';
import { bodyParts, buildMime, newMessageId, receivedHeader, type OutgoingMessage } from './compose-mime.js';
import { checkOutgoing, envelopeRecipients } from './outgoing.js';
import { touchUploads } from './sending.repository.js';
import { attachmentsForMessage, composeSourceFor } from './uploads.js';
import { checkEncryptedSend, encryptedSendNotice } from '../encrypted/index.js';
import { recordCorrespondents } from '../contacts/index.js';
import { checkScheduledRoom, scheduleSend, wakeScheduled } from './scheduled.js';
import { deliverQueued, finishSend, type SendHold, type SendParts } from './send-finish.js';

import type { SendingDeps } from './outbox.js';

export type { SendingDeps };

/** References kept on a reply: enough to thread, bounded like the store keeps them. */
const MAX_REFERENCES = 50;

/** A checked compose request, with its parts loaded: the input of sendMessage and saveDraft. */
export interface PreparedMessage {
  message: OutgoingMessage;
  /** The compose uploads it uses (deleted once sent, kept alive by a draft save). */
  uploadIds: number[];
  source: (ComposeSourceMessage & { mode: number }) | null;
  /** The draft it replaces (saving) or finishes (sending). */
  draftUid: number | null;
  /** A password-encrypted message's notice: stored with the encrypted flag. */
  encrypted?: boolean;
}

/**
 * Checks a compose request (header text, recipients, sender, attachments, the message it
 * answers) and turns it into message parts. Encryption replaces the body afterwards: the
 * service below takes the parts as they are.
 */
export async function prepareMessage(
  db: Db,
  principal: Principal,
  request: ComposeRequestParsed,
  purpose: 'send' | 'draft',
): Promise<PreparedMessage> {
  const headers = await checkOutgoing(db, principal, request, purpose === 'send');
  const { ids, attachments } = await attachmentsForMessage(db, principal, request.attachments);
  let source: PreparedMessage['source'] = null;
  if (request.source) {
    const found = await composeSourceFor(db, principal, request.source.folder_id, request.source.uid);
    if (!found) throw new DomainError('message_not_found');
    source = { ...found, mode: request.source.mode };
  }
  const replying = source !== null && source.mode !== COMPOSE_MODE.FORWARD && source.messageId !== null;
  const thread = replying
    ? { inReplyTo: source!.messageId, references: [...source!.references, source!.messageId!] }
    : await savedDraftThread(db, principal, request);
  return {
    message: {
      ...headers,
      ...bodyParts(request.content, request.content_type),
      attachments,
      inReplyTo: thread.inReplyTo,
      references: thread.references.slice(-MAX_REFERENCES),
    },
    uploadIds: ids,
    source,
    draftUid: request.uid ?? null,
  };
}

/**
 * A reply saved as a draft and reopened comes back without `source` (the compose window only knows the draft):
 * it answers what its saved copy answered, the last of its References, so the thread holds on both sides.
 */
async function savedDraftThread(
  db: Db,
  principal: Principal,
  request: ComposeRequestParsed,
): Promise<{ inReplyTo: string | null; references: string[] }> {
  const none = { inReplyTo: null, references: [] };
  if (request.source || !request.uid) return none;
  const drafts = await systemFolder(db, principal.accountId, 'draft');
  const draft = await composeSourceFor(db, principal, drafts.id, request.uid);
  const references = draft?.references ?? [];
  return references.length ? { inReplyTo: references.at(-1)!, references } : none;
}

function publish(deps: SendingDeps, accountId: number, events: MailEvent[]) {
  return emit(deps.db, deps, accountId, events);
}

/**
 * Sends: builds the message (dated when it goes), then one transaction removes the draft it came from, counts each
 * recipient as a correspondent (contacts' `correspondents`) and either stores the copy in Sent and finishes the send
 * (finishSend: outbox rows, \Answered, uploads, follow-up) — or, with a `hold`, stores the copy in Scheduled and
 * queues its scheduled send, which finishes it when its time comes (scheduled.ts). Local recipients see nothing of a
 * held message before then.
 */
export async function sendMessage(
  deps: SendingDeps,
  principal: Principal,
  prepared: PreparedMessage,
  options: { hold?: SendHold; remindAfterDays?: number | null } = {},
): Promise<SendResponse> {
  const { db, blobs, config } = deps;
  const { message } = prepared;
  const { hold } = options;
  const ids = { messageId: newMessageId(message.from.email), date: hold?.sendAt ?? new Date() };
  // One after the other: with 50 MB of attachments each copy is ~70 MB in memory.
  const sentRaw = await buildMime(blobs, message, ids, { keepBcc: true });
  const outboundRaw = Buffer.concat([
    receivedHeader(config.mailDomain, ids.date),
    await buildMime(blobs, message, ids, { keepBcc: false }),
  ]);
  const [parsed, outboundBlob, sentBlobs] = await Promise.all([
    parseMessage(sentRaw),
    blobs.put(outboundRaw),
    // Written before the transaction: no blob write waits inside it (nor an fsync holds a row lock).
    putMessageBlobs(blobs, sentRaw),
  ]);
  const recipients = await Promise.all(
    envelopeRecipients(message).map(async (address) => ({
      address,
      local: await isHostedDomain(db, config, address.slice(address.lastIndexOf('@') + 1)),
    })),
  );
  const accountId = principal.accountId;
  const parts: SendParts = {
    accountId,
    messageId: ids.messageId,
    outbound: outboundBlob,
    envelopeFrom: message.from.email,
    recipients,
    sourceRowId: prepared.source && prepared.source.mode !== COMPOSE_MODE.FORWARD ? prepared.source.id : null,
    uploadIds: prepared.uploadIds,
    remindAfterDays: options.remindAfterDays ?? null,
  };

  const { stored, queued, scheduled } = await transact(db, async (trx) => {
    const events: MailEvent[] = [];
    if (prepared.draftUid !== null)
      events.push(
        ...(await discardDraft(trx, principal.accountId, await scopeOf(trx, principal), prepared.draftUid)),
      );
    if (hold) await checkScheduledRoom(trx, config, accountId);
    const result = await storeMessage(trx, blobs, {
      accountId,
      systemFolder: hold ? 'scheduled' : 'sent',
      blobs: sentBlobs,
      parsed,
      flags: { seen: true },
      aliasId: message.fromAliasId,
      encrypted: prepared.encrypted ?? false,
      ...(hold ? { receivedAt: hold.sendAt } : {}),
    });
    events.push(...result.events);
    // Who the account writes to, and how often: compose's suggestions and image_display 'correspondent'.
    await recordCorrespondents(trx, accountId, [...message.to, ...message.cc, ...message.bcc], ids.date);
    if (hold) {
      const id = await scheduleSend(trx, parts, hold, result.message.id, prepared.encrypted ?? false);
      events.push({ event: 'scheduledSend', id, state: 'waiting' });
      void publish(deps, accountId, events);
      return {
        stored: result.message,
        queued: [],
        scheduled: { id, purpose: hold.purpose, send_at: hold.sendAt },
      };
    }
    const finished = await finishSend(trx, parts, result.message.id);
    events.push(...finished.events);
    void publish(deps, accountId, events);
    return { stored: result.message, queued: finished.queued, scheduled: null };
  });

  const copy = { uid: stored.uid, folder_id: stored.folderId };
  if (scheduled) {
    wakeScheduled(hold!.sendAt);
    return {
      message: copy,
      delivered: 0,
      queued: 0,
      relay_configured: Boolean(config.smtpRelayUrl),
      scheduled: { ...scheduled, send_at: scheduled.send_at.toISOString() },
    };
  }
  const outcome = await deliverQueued(deps, queued);
  return { message: copy, ...outcome, relay_configured: Boolean(config.smtpRelayUrl), scheduled: null };
}

/** Saves a draft in Drafts (\Draft, seen), replacing the draft it was saved as before. */
export async function saveDraft(
  deps: SendingDeps,
  principal: Principal,
  prepared: PreparedMessage,
): Promise<DraftResponse> {
  const { db, blobs } = deps;
  const { message } = prepared;
  const ids = { messageId: newMessageId(message.from.email), date: new Date() };
  const raw = await buildMime(blobs, message, ids, { keepBcc: true });
  const [parsed, draftBlobs] = await Promise.all([parseMessage(raw), putMessageBlobs(blobs, raw)]);
  const accountId = principal.accountId;
  const { stored, events } = await transact(db, async (trx) => {
    const events: MailEvent[] = [];
    if (prepared.draftUid !== null)
      events.push(
        ...(await discardDraft(trx, principal.accountId, await scopeOf(trx, principal), prepared.draftUid)),
      );
    const drafts = await systemFolder(trx, accountId, 'draft');
    const result = await storeMessage(trx, blobs, {
      accountId,
      folderId: drafts.id,
      blobs: draftBlobs,
      parsed,
      flags: { seen: true, draft: true },
      aliasId: message.fromAliasId,
    });
    events.push(...result.events);
    await touchUploads(trx, accountId, prepared.uploadIds);
    return { stored: result.message, events };
  });
  void publish(deps, accountId, events);
  return { message: { uid: stored.uid, folder_id: stored.folderId } };
}

/**
 * POST messages/send: checks and loads the request, turns a password-encrypted one into the notice
 * its recipients get (the ciphertext stays with us, SPEC §1), then sends.
 */
export async function sendComposed(
  deps: SendingDeps,
  principal: Principal,
  request: ComposeRequestParsed,
): Promise<SendResponse> {
  const hold = await sendHold(deps.db, principal, request);
  if (request.encrypt) checkEncryptedSend(request);
  const prepared = await prepareMessage(deps.db, principal, request, 'send');
  if (request.encrypt) {
    const notice = await encryptedSendNotice(deps, principal.accountId, prepared.message.from, request);
    prepared.message = {
      ...prepared.message,
      ...bodyParts(notice.html, 'text/html'),
      subject: notice.subject,
      headers: notice.headers,
    };
    prepared.encrypted = true;
  }
  return sendMessage(deps, principal, prepared, {
    ...(hold ? { hold } : {}),
    remindAfterDays: request.remind_after_days ?? null,
  });
}

/**
 * When a composed message goes: at `send_at` (Send later: ahead of now, at most a year; not for an encrypted
 * message, whose copy is only its notice), else after the member's undo_send_seconds (none: at once).
 */
async function sendHold(
  db: Db,
  principal: Principal,
  request: ComposeRequestParsed,
): Promise<SendHold | undefined> {
  if (request.send_at) {
    if (request.encrypt) throw new DomainError('scheduled_encrypted');
    const sendAt = new Date(request.send_at);
    checkAhead(sendAt);
    return { sendAt, purpose: 'later' };
  }
  const seconds =
    (await getSettings(db, principal.accountId)).undo_send_seconds ?? defaultSettings.undo_send_seconds;
  return seconds > 0 ? { sendAt: new Date(Date.now() + seconds * 1000), purpose: 'undo' } : undefined;
}

/** POST messages/draft: checks and loads the request, then saves it in Drafts. */
export async function saveComposedDraft(
  deps: SendingDeps,
  principal: Principal,
  request: ComposeRequestParsed,
): Promise<DraftResponse> {
  return saveDraft(deps, principal, await prepareMessage(deps.db, principal, request, 'draft'));
}

/**
 * DELETE messages/draft/{uid}: a draft its compose window saved and then found unneeded (the window is back as it
 * opened) goes for good, not to Trash. A uid that is not a draft in the session's view removes nothing.
 */
export async function discardComposedDraft(
  deps: SendingDeps,
  principal: Principal,
  uid: number,
): Promise<Ok> {
  const events = await transact(deps.db, async (trx) =>
    discardDraft(trx, principal.accountId, await scopeOf(trx, principal), uid),
  );
  void publish(deps, principal.accountId, events);
  return { ok: true };
}
