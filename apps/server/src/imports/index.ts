/**
 * Mail imports (issue 33): an mbox, an .eml, or a .zip or .tar.gz of .eml files imported into an account as a job,
 * through mailbox's one ingest, each message once however often it runs.
 */
export {
  getMailImport,
  mailImports,
  MAIL_IMPORT_JOB,
  startImport,
  type StartImportInput,
} from './imports.service.js';
export { runMailImport, startMailImports, type MailImportDeps } from './import-run.js';
export { blobsOfMailImports } from './imports.repository.js';
export { mailImportRoutes } from './imports.routes.js';
export { importFormat } from './import-source.js';
export { sweepImportUploads } from './import-uploads.service.js';
