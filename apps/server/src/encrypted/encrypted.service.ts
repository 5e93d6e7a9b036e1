import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  ENCRYPTED_PAYLOAD_LIMIT_BYTES,
  ENCRYPTION_KDF_ITERATIONS,
  ENCRYPTION_SALT_BYTES,
  type ComposeRequestParsed,
  type DecryptParams,
  type Encryption,
} from '@mailroom/protocol';
import type { Config } from '../config.js';
import { transact, type Db } from '../core/db/index.js';
import type { BlobStore } from '../core/blobs/index.js';
import type { EventBus, PublishLog } from '../core/events/index.js';
import type { Principal } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { readMessage } from '../mail/index.js';
import { sendNotice } from '../mailbox/index.js';
import {
  blobInUse,
  findLiveEncrypted,
  insertEncrypted,
  recordFailure,
  takeExpired,
  type EncryptedRow,
} from './encrypted.repository.js';
import {
  encryptedIdInNotice,
  encryptedNotice,
  encryptedNoticeHeader,
  lockedNotice,
  type NoticeContent,
} from './notices.js';

export interface EncryptedDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  /** Keys fake params for unknown ids: see `paramsKey`. */
  secrets: { decryptParamsSecret: string };
  log: PublishLog & { warn(obj: unknown, msg: string): void };
}

function digest(auth: string): Buffer {
  return createHash('sha256').update(Buffer.from(auth, 'base64url')).digest();
}

/**
 * The key of the fake params, derived under its own label from the secret core/secrets.ts gives it
 * (from SECRET_KEY, or the cookie secret without one), so it is stable across restarts and processes
 * without another secret to keep.
 */
export function paramsKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', 'mailroom encrypted-message params', 32));
}

/**
 * Stores an encrypted message from messages/send and returns the notice recipients get instead.
 * The server receives ciphertext, salts and the authentication value; it keeps SHA-256 of the
 * latter. PBKDF2 already makes each password guess cost 600,000 rounds, so a plain hash of its
 * output is enough: a stolen row is no cheaper to attack than the ciphertext next to it.
 */
export async function createEncryptedMessage(
  deps: Pick<EncryptedDeps, 'config' | 'db' | 'blobs'>,
  input: { accountId: number; sender: { email: string; name: string }; encryption: Encryption },
): Promise<{ id: string; link: string; expiresAt: Date; notice: NoticeContent }> {
  const ciphertext = Buffer.from(input.encryption.ciphertext, 'base64');
  if (ciphertext.length > ENCRYPTED_PAYLOAD_LIMIT_BYTES) throw new DomainError('encrypted_too_large');
  const blob = await deps.blobs.put(ciphertext);
  const id = randomBytes(16).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.config.encrypted.ttlMs);
  await insertEncrypted(deps.db, {
    id,
    account_id: input.accountId,
    sender_email: input.sender.email,
    blob_hash: blob.hash,
    size: blob.size,
    iterations: input.encryption.iterations,
    key_salt: input.encryption.key_salt,
    auth_salt: input.encryption.auth_salt,
    auth_digest: digest(input.encryption.auth).toString('hex'),
    expires_at: expiresAt,
  });
  const link = `${deps.config.publicUrl}/decrypt?id=${id}`;
  const sender = input.sender.name ? `${input.sender.name} <${input.sender.email}>` : input.sender.email;
  return { id, link, expiresAt, notice: encryptedNotice({ id, link, sender, expiresAt }) };
}

/**
 * Expired messages go for good, row and ciphertext (random bytes: only a resend of the same
 * request shares them, and then the blob stays while a row needs it).
 * Run hourly by main.ts; until then an expired row already answers like an unknown one.
 */
export async function sweepExpiredEncrypted(deps: Pick<EncryptedDeps, 'db' | 'blobs'>): Promise<number> {
  let removed = 0;
  for (;;) {
    const hashes = await takeExpired(deps.db);
    for (const hash of hashes) if (!(await blobInUse(deps.db, hash))) await deps.blobs.remove(hash);
    removed += hashes.length;
    if (hashes.length === 0) return removed;
  }
}

/**
 * messages/send with `encrypt`: stores the encryption and returns the notice that is sent instead
 * of the message. The browser must have put subject, body and attachments inside the encryption:
 * anything left in the clear is refused rather than sent next to the ciphertext.
 */
export async function encryptedSendNotice(
  deps: Pick<EncryptedDeps, 'config' | 'db' | 'blobs'>,
  accountId: number,
  sender: { email: string; name: string },
  request: EncryptedSendFields,
): Promise<NoticeContent> {
  const encryption = checkEncryptedSend(request);
  const { notice } = await createEncryptedMessage(deps, { accountId, sender, encryption });
  return notice;
}

type EncryptedSendFields = Pick<ComposeRequestParsed, 'encryption' | 'subject' | 'content' | 'attachments'>;

/** Called before anything else of the request is looked at, so nothing is done for a bad one. */
export function checkEncryptedSend(request: EncryptedSendFields): Encryption {
  if (!request.encryption || request.subject || request.content || request.attachments.length)
    throw new DomainError('invalid_request_params');
  return request.encryption;
}

/**
 * True when a message being delivered is the notice of a live encrypted message: the mailbox then
 * marks it encrypted and the reader offers the password prompt. A forged header naming no real
 * message marks nothing.
 */
export async function isEncryptedNotice(db: Db, raw: Buffer): Promise<boolean> {
  const id = encryptedNoticeHeader(raw);
  return id !== undefined && (await findLiveEncrypted(db, id)) !== undefined;
}

/**
 * GET decrypt/{id}/params. Unknown and expired ids get params made from an HMAC of the id: stable
 * and shaped like real ones (real ones always have ENCRYPTION_KDF_ITERATIONS), so this route does
 * not tell which ids exist.
 */
export async function decryptParams(deps: EncryptedDeps, id: string): Promise<DecryptParams> {
  const row = await findLiveEncrypted(deps.db, id);
  if (row) return { id, iterations: row.iterations, key_salt: row.key_salt, auth_salt: row.auth_salt };
  const key = paramsKey(deps.secrets.decryptParamsSecret);
  const salt = (label: string) =>
    createHmac('sha256', key)
      .update(`${label}:${id}`)
      .digest()
      .subarray(0, ENCRYPTION_SALT_BYTES)
      .toString('base64url');
  return { id, iterations: ENCRYPTION_KDF_ITERATIONS, key_salt: salt('key'), auth_salt: salt('auth') };
}

// Compared against for unknown ids, so both paths do the same work.
const dummyDigest = createHash('sha256').update('no such message').digest();

/**
 * POST decrypt: the ciphertext once `auth` matches. A wrong password and an unknown or expired id
 * both give decrypt_failed, byte for byte the same; the attempt that reaches the limit locks the
 * message and tells the sender once; from then on every attempt gives decrypt_locked.
 */
export async function openEncrypted(deps: EncryptedDeps, id: string, auth: string): Promise<Buffer> {
  const offered = digest(auth);
  const outcome = await transact(deps.db, async (trx) => {
    const row = await findLiveEncrypted(trx, id, true);
    const expected = row ? Buffer.from(row.auth_digest, 'hex') : dummyDigest;
    const matches = expected.length === offered.length && timingSafeEqual(expected, offered);
    if (!row) {
      // The same statement as for a wrong password (it matches nothing), so both take alike.
      await recordFailure(trx, id, deps.config.encrypted.maxAttempts);
      return { kind: 'failed' as const };
    }
    if (row.locked_at) return { kind: 'locked' as const };
    if (matches) return { kind: 'open' as const, row };
    const failure = await recordFailure(trx, id, deps.config.encrypted.maxAttempts);
    return { kind: 'failed' as const, lockedNow: failure.locked_now ? row : undefined };
  });
  if (outcome.kind === 'open') return deps.blobs.get(outcome.row.blob_hash);
  if (outcome.kind === 'locked') throw new DomainError('decrypt_locked');
  if (outcome.lockedNow) {
    await tellSenderLocked(deps, outcome.lockedNow).catch((err: unknown) =>
      deps.log?.warn({ err }, 'telling the sender about a locked encrypted message failed'),
    );
  }
  throw new DomainError('decrypt_failed');
}

/** The encrypted message behind a notice in the caller's mailbox (encrypted flag set by sending). */
async function encryptedIdOf(db: Db, principal: Principal, folderId: number, uid: number): Promise<string> {
  const mail = await readMessage(db, principal, folderId, uid, false, []);
  const id = mail.encrypted ? encryptedIdInNotice(Buffer.from(mail.content, 'base64').toString()) : undefined;
  if (!id) throw new DomainError('message_not_found');
  return id;
}

/** POST messages/decrypt: params without `auth`, the ciphertext with it, for a notice the caller holds. */
export async function decryptForMessage(
  deps: EncryptedDeps,
  principal: Principal,
  input: { folder_id: number; uid: number; auth?: string | undefined },
): Promise<DecryptParams | Buffer> {
  const id = await encryptedIdOf(deps.db, principal, input.folder_id, input.uid);
  return input.auth === undefined ? decryptParams(deps, id) : openEncrypted(deps, id, input.auth);
}

async function tellSenderLocked(deps: EncryptedDeps, row: EncryptedRow): Promise<void> {
  const notice = lockedNotice({ sentAt: row.created_at, attempts: deps.config.encrypted.maxAttempts });
  await sendNotice(deps, deps.config.mailDomain, row.account_id, { to: row.sender_email, ...notice });
}
