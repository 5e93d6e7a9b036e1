export { createSystemFolders, getFolderTree, systemFolders } from './folders.service.js';
export { requireFolder, systemFolder, type FolderRef } from '../mailbox/folders.js';
export { mailRoutes } from './mail.routes.js';
export { restoreProxiedImageUrls } from './image-proxy.js';
export { parseMessage, type ParsedMessage, type ParsedAttachment } from '../mailbox/parse/parse-message.js';
export {
  putMessageBlobs,
  storeMessage,
  type MessageBlobs,
  type StoreMessageInput,
  type StoredMessage,
} from '../mailbox/ingest.js';
export { threadSubject } from '../mailbox/threads.js';
export { listColumns, toListItem, toMailFields, type ListRow } from './list-items.js';
export { readMessage } from './messages-read.service.js';
export {
  discardDraft,
  findComposeSource,
  markAnswered,
  type ComposeSourceMessage,
} from './compose-lookups.js';
export { sessionView } from './messages-read.service.js';
