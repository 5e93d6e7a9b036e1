// Encrypted messages: the switch and request compose uses to encrypt, and the lazily loaded pieces that open one
// (the public /decrypt page and the reader's panel).
export {
  EncryptSwitch,
  encryptionOff,
  encryptionPasswordValid,
  type EncryptionChoice,
} from './encrypt-switch';
export { EncryptedTooLargeError, encryptComposeRequest, fitsEncryptedLimit } from './encrypt-request';

export const loadDecryptPage = () => import('./decrypt-page');
export const loadReaderDecrypt = () => import('./reader-decrypt');
