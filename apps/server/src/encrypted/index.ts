export { encryptedRoutes } from './encrypted.routes.js';
export {
  checkEncryptedSend,
  createEncryptedMessage,
  decryptParams,
  encryptedSendNotice,
  isEncryptedNotice,
  openEncrypted,
  sweepExpiredEncrypted,
  type EncryptedDeps,
} from './encrypted.service.js';
export { ENCRYPTED_HEADER, ENCRYPTED_NOTICE_SUBJECT, encryptedIdInNotice } from './notices.js';
export { blobsOfEncrypted } from './encrypted.repository.js';
