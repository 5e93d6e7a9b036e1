/**
 * The mail store every writer goes through (DESIGN §3): see docs/ARCHITECTURE.md. It exports operations that take
 * a `Trx` or open one; its lock and move primitives (mailbox.repository.ts, purge.ts) stay inside (eslint refuses
 * them to other areas).
 */
export * from './parse/index.js';
export {
  messageBlobsFor,
  putMessageBlobs,
  storeMessage,
  type BlobRef,
  type MessageBlobs,
  type StoreMessageInput,
  type StoreMessageResult,
  type StoredMessage,
} from './store-message.js';
export {
  ingest,
  ingestMany,
  IngestFailed,
  type IngestCopy,
  type Ingested,
  type IngestOptions,
  type IngestSource,
  type IngestTarget,
} from './ingest.js';
export {
  fromDomainProved,
  type AuthResult,
  type AuthResults,
  type MessageVerdict,
  type SpamResult,
} from './verdict.js';
export { SPAM_LEARN_JOB, type SpamLesson } from './spam-lessons.js';
export { oldJunk } from './junk.repository.js';
export {
  checkAhead,
  releaseScheduledCopies,
  requeueOverdueReturns,
  returnDue,
  RETURNS_JOB,
  snoozeMessages,
  startFollowUp,
  unsnoozeMessages,
  withdrawScheduledCopy,
} from './returns.js';
export { snoozedUntil } from './returns.repository.js';
export { openAttachment } from './attachments.js';
export { importedDate } from './imported-date.js';
export { composeNotice, sendNotice, storeNotice, type NoticeText } from './notice.js';
export { threadSubject } from './threads.js';
export { prefixQuery, searchVectorSql, type SearchField } from './search-vector.js';
export {
  createSystemFolders,
  listFolders,
  requireFolder,
  scopedFolderCounts,
  systemFolder,
  systemFolders,
  uidsInScope,
  type FolderCounts,
  type FolderRef,
  type FolderRow,
} from './folders.repository.js';
export {
  createFolder,
  deleteFolder,
  deleteFolderTree,
  ensureCollectorFolderPath,
  ensureFolderPath,
  nestedFolderPath,
  updateFolder,
} from './folders.js';
export {
  deleteMessages,
  emptyFolder,
  markMessages,
  moveMessages,
  purgeMessages,
  type ActionOutcome,
} from './message-actions.js';
export { changeLabel, createLabel, ensureLabels, listLabels, removeLabel, requireLabel } from './labels.js';
export {
  discardDraft,
  findComposeSource,
  markAnswered,
  type ComposeSourceMessage,
} from './compose-source.js';
export { lockAccount, messagesAfterUid, messagePlaces } from './mailbox.repository.js';
export { groupByFolder, mergeGroups } from './purge.js';
export {
  addressCount,
  aliasRowsCondition,
  inScope,
  scopeCondition,
  wholeMailbox,
  type Scope,
} from './scope.js';
export { accountsWithNewInboxMail, newInboxMail } from './new-mail.repository.js';
export { blobsOfMessages, messageBlobHash } from './blob-references.repository.js';
