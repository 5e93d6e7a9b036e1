import {
  ENCRYPTION_AUTH_BYTES,
  ENCRYPTION_IV_BYTES,
  ENCRYPTION_KDF_ITERATIONS,
  ENCRYPTION_SALT_BYTES,
  generateEncryptionPassword,
  type Encryption,
} from '@mailroom/protocol';

/**
 * Password encryption in the browser, with WebCrypto only (issue #5).
 *
 * - key: PBKDF2-SHA-256(password, key_salt, 600,000) -> AES-256-GCM, non-extractable, never sent.
 * - auth: PBKDF2-SHA-256(password, auth_salt, 600,000) -> 32 bytes, sent to prove the password; the
 *   server keeps SHA-256(auth) only. Separate random salts make the two unrelated, so knowing auth
 *   (the server does, for a moment at send time) gives nothing about the key.
 * - envelope: version byte 1 | 12-byte random IV | AES-GCM ciphertext with its 16-byte tag.
 * - plaintext: 4-byte big-endian header length | header JSON (subject, content, content_type,
 *   attachment names, types and sizes) | attachment bytes one after another. Binary, so 20 MB of
 *   attachments are not inflated by base64 inside the encryption.
 *
 * The subject travels inside the encryption; the mail recipients get has a generic subject, so
 * nothing of the message is readable on the way or in their mailbox.
 */

export const ENVELOPE_VERSION = 1;

export interface EncryptedAttachment {
  name: string;
  type: string;
  bytes: Uint8Array;
}

export interface EncryptedPayload {
  subject?: string;
  content: string;
  content_type: 'text/plain' | 'text/html';
  attachments: EncryptedAttachment[];
}

interface PayloadHeader {
  v: 1;
  subject?: string;
  content: string;
  content_type: 'text/plain' | 'text/html';
  attachments: { name: string; type: string; size: number }[];
}

export interface KdfParams {
  iterations: number;
  key_salt: string;
  auth_salt: string;
}

/** The wrong password, or bytes that were not made by `encryptMessage`. */
export class DecryptError extends Error {
  constructor() {
    super('The message could not be decrypted');
    this.name = 'DecryptError';
  }
}

export function generatePassword(): string {
  return generateEncryptionPassword();
}

export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}

export function toBase64(bytes: Uint8Array): string {
  // In slices: String.fromCharCode(...bytes) overflows the call stack for megabytes.
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const padded = text + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

async function passwordKey(password: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, [
    'deriveKey',
    'deriveBits',
  ]);
}

/** The AES-256-GCM key and the authentication value of a password under the given params. */
export async function deriveSecrets(
  password: string,
  params: KdfParams,
): Promise<{ key: CryptoKey; auth: string }> {
  const base = await passwordKey(password);
  const pbkdf2 = (salt: string) => ({
    name: 'PBKDF2',
    hash: 'SHA-256',
    salt: fromBase64Url(salt),
    iterations: params.iterations,
  });
  const [key, authBits] = await Promise.all([
    crypto.subtle.deriveKey(pbkdf2(params.key_salt), base, { name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]),
    crypto.subtle.deriveBits(pbkdf2(params.auth_salt), base, ENCRYPTION_AUTH_BYTES * 8),
  ]);
  return { key, auth: toBase64Url(new Uint8Array(authBits)) };
}

export function encodePayload(payload: EncryptedPayload): Uint8Array<ArrayBuffer> {
  const header: PayloadHeader = {
    v: 1,
    ...(payload.subject !== undefined ? { subject: payload.subject } : {}),
    content: payload.content,
    content_type: payload.content_type,
    attachments: payload.attachments.map((a) => ({ name: a.name, type: a.type, size: a.bytes.length })),
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const total = 4 + headerBytes.length + payload.attachments.reduce((sum, a) => sum + a.bytes.length, 0);
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, headerBytes.length);
  out.set(headerBytes, 4);
  let offset = 4 + headerBytes.length;
  for (const a of payload.attachments) {
    out.set(a.bytes, offset);
    offset += a.bytes.length;
  }
  return out;
}

export function decodePayload(bytes: Uint8Array): EncryptedPayload {
  if (bytes.length < 4) throw new DecryptError();
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  if (4 + headerLength > bytes.length) throw new DecryptError();
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))) as PayloadHeader;
  let offset = 4 + headerLength;
  const attachments = header.attachments.map((a) => {
    const part = bytes.slice(offset, offset + a.size);
    offset += a.size;
    return { name: a.name, type: a.type, bytes: part };
  });
  return {
    ...(header.subject !== undefined ? { subject: header.subject } : {}),
    content: header.content,
    content_type: header.content_type === 'text/html' ? 'text/html' : 'text/plain',
    attachments,
  };
}

/**
 * Encrypts a message under a password with fresh salts and IV; the result is what messages/send
 * carries as `encryption`.
 */
export async function encryptMessage(
  password: string,
  payload: EncryptedPayload,
): Promise<Encryption & { size: number }> {
  const params = {
    iterations: ENCRYPTION_KDF_ITERATIONS,
    key_salt: toBase64Url(randomBytes(ENCRYPTION_SALT_BYTES)),
    auth_salt: toBase64Url(randomBytes(ENCRYPTION_SALT_BYTES)),
  };
  const { key, auth } = await deriveSecrets(password, params);
  const iv = randomBytes(ENCRYPTION_IV_BYTES);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, encodePayload(payload)),
  );
  const envelope = new Uint8Array(1 + iv.length + sealed.length);
  envelope[0] = ENVELOPE_VERSION;
  envelope.set(iv, 1);
  envelope.set(sealed, 1 + iv.length);
  return {
    ciphertext: toBase64(envelope),
    iterations: ENCRYPTION_KDF_ITERATIONS,
    key_salt: params.key_salt,
    auth_salt: params.auth_salt,
    auth,
    size: envelope.length,
  };
}

/** Opens an envelope with the key; a wrong key fails the GCM tag check and throws DecryptError. */
export async function decryptEnvelope(key: CryptoKey, envelope: Uint8Array): Promise<EncryptedPayload> {
  if (envelope.length < 1 + ENCRYPTION_IV_BYTES + 16 || envelope[0] !== ENVELOPE_VERSION)
    throw new DecryptError();
  const iv = envelope.slice(1, 1 + ENCRYPTION_IV_BYTES);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv },
      key,
      envelope.slice(1 + ENCRYPTION_IV_BYTES),
    );
  } catch {
    throw new DecryptError();
  }
  return decodePayload(new Uint8Array(plain));
}
