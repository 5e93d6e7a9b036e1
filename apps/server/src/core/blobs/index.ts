export {
  BlobStoreUnavailableError,
  BlobTooLargeError,
  FsBlobStore,
  MissingBlobError,
  blobHash,
  putEach,
  type BlobStore,
  type ListedBlob,
  type PendingBlobRow,
  type PutStreamOptions,
} from './blob-store.js';
export { insertBlobSql, type BlobRow } from './blobs.repository.js';
export {
  SPOOL_MAX_AGE_MS,
  collectBlobs,
  startBlobCollector,
  type BlobCollection,
  type BlobReferences,
} from './collector.js';
// The S3 store itself is imported from './s3-blob-store.js' where it is wanted (openBlobStore loads it on demand).
export type { S3Settings } from './s3-blob-store.js';
export { DatabaseBlobStore, SMALL_BLOB_MAX_BYTES, openBlobStore } from './database-blob-store.js';
export * from './spool.js';
