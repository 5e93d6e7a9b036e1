export { BlobTooLargeError, FsBlobStore, blobHash, type BlobStore } from './blob-store.js';
