import { z } from 'zod';
import { rowIdSchema, uidSchema } from './common.js';
import {
  ENCRYPTED_ID_PATTERN,
  ENCRYPTED_PAYLOAD_LIMIT_BYTES,
  ENCRYPTION_AUTH_BYTES,
  ENCRYPTION_KDF_ITERATIONS,
  ENCRYPTION_SALT_BYTES,
} from '../encryption.js';

/**
 * Password-encrypted messages (issue #5). The browser derives two values from the password with
 * PBKDF2-SHA-256: an AES-256-GCM key (under `key_salt`) that never leaves the browser, and an
 * authentication value (under `auth_salt`) that proves the password to the server, which keeps
 * only its SHA-256. The server never sees the password, the key or the plaintext.
 */

const base64url = (bytes: number) =>
  z
    .string()
    .length(Math.ceil((bytes * 4) / 3))
    .regex(/^[A-Za-z0-9_-]+$/, 'base64url');

export const encryptedIdSchema = z.string().regex(ENCRYPTED_ID_PATTERN, 'an encrypted message id');

/** What the send request carries when `encrypt` is on (composeRequestSchema.encryption). */
export const encryptionSchema = z.object({
  /** Version byte, IV and AES-GCM output (see apps/web/src/features/decrypt/crypto.ts), base64. */
  ciphertext: z
    .string()
    .min(1)
    .max(Math.ceil(ENCRYPTED_PAYLOAD_LIMIT_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64'),
  iterations: z.literal(ENCRYPTION_KDF_ITERATIONS),
  key_salt: base64url(ENCRYPTION_SALT_BYTES),
  auth_salt: base64url(ENCRYPTION_SALT_BYTES),
  /** The authentication value; stored only as its SHA-256. */
  auth: base64url(ENCRYPTION_AUTH_BYTES),
});
export type Encryption = z.infer<typeof encryptionSchema>;

/** GET decrypt/{id}/params: what the browser needs to derive the key and the authentication value. */
export const decryptParamsSchema = z.object({
  id: encryptedIdSchema,
  iterations: z.number().int(),
  key_salt: z.string(),
  auth_salt: z.string(),
});
export type DecryptParams = z.infer<typeof decryptParamsSchema>;

/** POST decrypt: answers the ciphertext (application/octet-stream) once `auth` is proven. */
export const decryptRequestSchema = z.object({
  id: encryptedIdSchema,
  auth: base64url(ENCRYPTION_AUTH_BYTES),
});
export type DecryptRequest = z.infer<typeof decryptRequestSchema>;

/**
 * POST messages/decrypt, from the reader, for the encrypted notice the caller holds: without
 * `auth` it answers the params (JSON), with `auth` the ciphertext like POST decrypt.
 */
export const messageDecryptRequestSchema = z.object({
  folder_id: rowIdSchema,
  uid: uidSchema,
  auth: base64url(ENCRYPTION_AUTH_BYTES).optional(),
});
export type MessageDecryptRequest = z.infer<typeof messageDecryptRequestSchema>;
