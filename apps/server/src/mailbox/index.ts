/** The mail store every writer goes through (DESIGN §3): see docs/ARCHITECTURE.md. */
export * from './parse/index.js';
export {
  putMessageBlobs,
  storeMessage,
  type BlobRef,
  type MessageBlobs,
  type StoreMessageInput,
  type StoreMessageResult,
  type StoredMessage,
} from './ingest.js';
export { openAttachment } from './attachments.js';
export { storeNotice } from './notice.js';
export { findThread, threadSubject } from './threads.js';
export { prefixQuery, searchVectorSql, type SearchField } from './search-vector.js';
export {
  createSystemFolders,
  insertFolders,
  requireFolder,
  scopedFolderCounts,
  systemFolder,
  systemFolders,
  uidsInScope,
  type FolderCounts,
  type FolderRef,
} from './folders.repository.js';
export {
  allocateUids,
  folderSystems,
  lockAccount,
  lockFolders,
  lockMessages,
  messagesAfterUid,
  messagePlaces,
  relocateMessages,
  setFlag,
  setLabel,
  type FlagChange,
  type LockedFolder,
  type LockedMessage,
} from './mailbox.repository.js';
export { counterEvent, groupByFolder, mergeGroups, purgeLocked, unseenCount } from './purge.js';
export { inScope, scopeCondition, wholeMailbox, type Scope } from './scope.js';
export { accountsWithNewInboxMail, newInboxMail } from './new-mail.repository.js';
export { blobsOfMessages } from './blob-references.repository.js';
