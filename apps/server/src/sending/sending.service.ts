import type { ComposeRequestParsed, DraftResponse, MailEvent, Ok, SendResponse } from '@mailroom/protocol';
import { COMPOSE_MODE } from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import { transact, type Db } from '../core/db/index.js';
import { emit } from '../core/events/index.js';
import { isHostedDomain, scopeOf } from '../addresses/index.js';
import {
  discardDraft,
  markAnswered,
  parseMessage,
  putMessageBlobs,
  storeMessage,
  systemFolder,
  type ComposeSourceMessage,
} from '../mailbox/index.js';
import { DomainError } from '../core/errors.js';
import { bodyParts, buildMime, newMessageId, receivedHeader, type OutgoingMessage } from './compose-mime.js';
import { deliverNow, queueOutgoing, wakeOutbox } from './outbox.js';
import { checkOutgoing, envelopeRecipients } from './outgoing.js';
import { deleteUploads, touchUploads } from './sending.repository.js';
import { attachmentsForMessage, composeSourceFor } from './uploads.js';
import { checkEncryptedSend, encryptedSendNotice } from '../encrypted/index.js';
import { recordCorrespondents } from '../contacts/index.js';

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
 * Sends: one transaction stores the copy in Sent (with Bcc), removes the draft it came from,
 * marks the answered message, queues one outbox row per recipient and counts each recipient as a
 * correspondent (contacts' `correspondents`); after the commit local
 * recipients get it at once through the inbound delivery path, remote ones from the outbox job.
 */
export async function sendMessage(
  deps: SendingDeps,
  principal: Principal,
  prepared: PreparedMessage,
): Promise<SendResponse> {
  const { db, blobs, config } = deps;
  const { message } = prepared;
  const ids = { messageId: newMessageId(message.from.email), date: new Date() };
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

  const { stored, events, queued } = await transact(db, async (trx) => {
    const events: MailEvent[] = [];
    if (prepared.draftUid !== null)
      events.push(
        ...(await discardDraft(trx, principal.accountId, await scopeOf(trx, principal), prepared.draftUid)),
      );
    const sent = await systemFolder(trx, accountId, 'sent');
    const result = await storeMessage(trx, blobs, {
      accountId,
      folderId: sent.id,
      blobs: sentBlobs,
      parsed,
      flags: { seen: true },
      aliasId: message.fromAliasId,
      encrypted: prepared.encrypted ?? false,
    });
    events.push(...result.events);
    // $Forwarded has no column in the store (flags are columns, not keywords): only replies mark.
    if (prepared.source && prepared.source.mode !== COMPOSE_MODE.FORWARD) {
      events.push(...(await markAnswered(trx, accountId, prepared.source.id)));
    }
    const queued = await queueOutgoing(
      trx,
      recipients.map((r) => ({
        account_id: accountId,
        blob_hash: outboundBlob.hash,
        size: outboundBlob.size,
        message_id: ids.messageId,
        envelope_from: message.from.email,
        recipient: r.address,
        local: r.local,
      })),
    );
    await deleteUploads(trx, accountId, prepared.uploadIds);
    // Who the account writes to, and how often: compose's suggestions and image_display 'correspondent'.
    await recordCorrespondents(trx, accountId, [...message.to, ...message.cc, ...message.bcc], ids.date);
    return { stored: result.message, events, queued };
  });
  void publish(deps, accountId, events);

  // Local recipients now, so the sender learns how many got it; a crash here leaves the rows
  // queued and the outbox job delivers them (the inbound path does not store a retry twice).
  const localIds = queued.filter((r) => r.local).map((r) => r.id);
  const outcomes = await deliverNow(deps, localIds).catch((err: unknown) => {
    // The message is sent (Sent copy and outbox rows are committed): the job does the rest.
    deps.log.error({ err }, 'immediate local delivery failed; left to the outbox job');
    return [];
  });
  const remote = queued.length - localIds.length;
  if (remote && config.smtpRelayUrl) wakeOutbox();
  return {
    message: { uid: stored.uid, folder_id: stored.folderId },
    delivered: outcomes.filter((o) => o === 'sent').length,
    queued: remote,
    relay_configured: Boolean(config.smtpRelayUrl),
  };
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
  return sendMessage(deps, principal, prepared);
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
