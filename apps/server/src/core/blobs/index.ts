export { BlobTooLargeError, FsBlobStore, blobHash, type BlobStore } from './blob-store.js';
export { DatabaseBlobStore, SMALL_BLOB_MAX_BYTES, openBlobStore } from './database-blob-store.js';
export {
  SpoolTooLargeError,
  SpoolWriter,
  spoolPath,
  writeSpool,
  type SpooledFile,
  type SpoolOptions,
} from './spool.js';
