export type {
  CreateInvoiceInput,
  WalletBankAccount,
  WalletGateway,
  WalletInvoice,
  WalletInvoiceStatus,
  WalletNotice,
} from './gateway.js';
export {
  findInvoice,
  invoiceLedger,
  invoicesForSubject,
  invoicesForSubjects,
  type InvoiceLedgerRow,
  type InvoiceRef,
  type InvoiceRow,
} from './invoices.repository.js';
export {
  cancelInvoice,
  checkInvoice,
  createInvoice,
  invoiceIdempotencyKey,
  InvoicePurposes,
  invoiceView,
  refundInvoice,
  registerInvoicePurpose,
  settleInvoice,
  type CreateInvoiceRequest,
  type InvoicePurposeHandler,
  type SettleRequest,
  type SettleResult,
  type WalletDeps,
} from './invoices.service.js';
export { openWalletGateway } from './open-gateway.js';
export { SANDBOX_WALLET_PATH, sandboxBankAccounts, SandboxWalletGateway } from './sandbox-gateway.js';
export { sandboxWalletOf, settleInSandbox } from './sandbox.service.js';
export { HttpWalletGateway, WALLET_TIMEOUT_MS } from './http-gateway.js';
export {
  startSandboxWalletServer,
  type SandboxWalletServer,
  type WalletWebhookEvent,
} from './sandbox-server.js';
export { signWebhook, verifyWebhookSignature, WEBHOOK_TOLERANCE_SECONDS } from './webhook-signature.js';
export { receiveWalletWebhook } from './webhook.service.js';
export { walletRoutes } from './wallet.routes.js';
export {
  INVOICE_TTL_MS,
  RECONCILE_AFTER_MS,
  reconcileInvoices,
  sendMailNotices,
  startWalletJobs,
} from './jobs.js';
export { sandboxWalletRoutes } from './sandbox.routes.js';
