export { FsBlobStore, blobHash, type BlobStore } from './blob-store.js';
