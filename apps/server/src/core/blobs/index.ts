export { BlobTooLargeError, FsBlobStore, blobHash, type BlobStore } from './blob-store.js';
export {
  SpoolTooLargeError,
  SpoolWriter,
  removeSpooled,
  spoolPath,
  writeSpool,
  type SpooledFile,
} from './spool.js';
