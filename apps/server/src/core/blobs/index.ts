export { BlobTooLargeError, FsBlobStore, blobHash, type BlobStore } from './blob-store.js';
export { SpoolTooLargeError, SpoolWriter, spoolPath, writeSpool, type SpooledFile } from './spool.js';
