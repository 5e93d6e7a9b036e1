/**
 * The message-encryption password (SPEC §5). Apart from validation.ts because only compose's encryption uses it in
 * the web app, whose mail shell keeps whatever module it imports in its initial JavaScript (DESIGN §5).
 */
import {
  ENCRYPTION_PASSWORD_GENERATED_LENGTH,
  ENCRYPTION_PASSWORD_MAX_LENGTH,
  ENCRYPTION_PASSWORD_MIN_LENGTH,
} from './constants.js';

/** True when the message-encryption password has 3 to 20 characters (counted as code points). */
export function validateEncryptionPassword(password: string): boolean {
  const length = [...password].length;
  return length >= ENCRYPTION_PASSWORD_MIN_LENGTH && length <= ENCRYPTION_PASSWORD_MAX_LENGTH;
}

const passwordAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The random password prefilled in the encryption dialog: uniform over letters and digits. */
export function generateEncryptionPassword(length: number = ENCRYPTION_PASSWORD_GENERATED_LENGTH): string {
  // Bytes at or above the largest multiple of the alphabet size are dropped, so no character is favoured.
  const limit = 256 - (256 % passwordAlphabet.length);
  let password = '';
  while (password.length < length) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte >= limit) continue;
      password += passwordAlphabet[byte % passwordAlphabet.length];
      if (password.length === length) break;
    }
  }
  return password;
}
