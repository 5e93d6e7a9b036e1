export { mailRoutes } from './mail.routes.js';
export { restoreProxiedImageUrls } from './image-proxy/index.js';
export { readMessage } from './messages-read.service.js';
export {
  deleteFolderTree,
  ensureCollectorFolderPath,
  ensureFolderPath,
  getFolderTree,
} from './folders.service.js';
export { listFolders, type FolderRow } from './folders.repository.js';
export { listLabels } from './labels.repository.js';
export {
  discardDraft,
  findComposeSource,
  markAnswered,
  type ComposeSourceMessage,
} from './compose-lookups.js';
export { markMessages, moveMessages, type ActionOutcome } from './message-actions.service.js';
