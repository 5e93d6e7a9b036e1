/**
 * Collectors (issue 18): other IMAP mailboxes imported into the account. The routes (find_imap and user/collectors),
 * the sign-in every import starts with (`connectImap`, whose failures are catalogue codes: `imapErrorCode`), the
 * row's API view (`collectorView`, what the `collector` event carries), the sealing of the password, and the import
 * job (`startCollectorJobs`, one pass: `runCollectorPass`).
 */
export { collectorRoutes } from './collectors.routes.js';
export { collectorView } from './collector-view.js';
export type { CollectorRow } from './collectors.repository.js';
export { connectImap, imapErrorCode, type ImapConnectDeps, type ImapEndpoint } from './imap-connect.js';
export { openCollectorPassword, sealCollectorPassword } from './collector-password.js';
export { type CollectorImportDeps } from './collector-import.js';
export { runCollectorPass, startCollectorJobs, wakeCollectorJobs } from './collector-jobs.js';
