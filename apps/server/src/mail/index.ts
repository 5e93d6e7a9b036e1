export { createSystemFolders, getFolderTree, systemFolders } from './folders.service.js';
export { mailRoutes } from './mail.routes.js';
