/**
 * Parameters of password-encrypted messages (issue #5), apart from the schemas so the browser's
 * crypto code imports them without zod.
 */

/** PBKDF2-SHA-256 rounds for both derivations (OWASP 2023 guidance for PBKDF2-HMAC-SHA256). */
export const ENCRYPTION_KDF_ITERATIONS = 600_000;
export const ENCRYPTION_SALT_BYTES = 16;
export const ENCRYPTION_AUTH_BYTES = 32;
export const ENCRYPTION_IV_BYTES = 12;
/** Largest ciphertext of one encrypted message (body and attachments together), in bytes. */
export const ENCRYPTED_PAYLOAD_LIMIT_BYTES = 20 * 1024 * 1024;
/** Ids are 16 random bytes in base64url: not guessable, so a guess costs an online request per id. */
export const ENCRYPTED_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
