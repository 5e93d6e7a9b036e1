export { mailRoutes } from './mail.routes.js';
export { restoreProxiedImageUrls } from './image-proxy/index.js';
export { readMessage } from './messages-read.service.js';
export { getFolderTree } from './folders.service.js';
