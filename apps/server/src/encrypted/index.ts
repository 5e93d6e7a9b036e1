export { encryptedRoutes } from './encrypted.routes.js';
export {
  createEncryptedMessage,
  decryptParams,
  encryptedSendNotice,
  isEncryptedNotice,
  openEncrypted,
  type EncryptedDeps,
} from './encrypted.service.js';
export { ENCRYPTED_HEADER, ENCRYPTED_NOTICE_SUBJECT, encryptedIdInNotice } from './notices.js';
