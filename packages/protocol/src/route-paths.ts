// The route table's addresses, apart from its schemas (routes.ts): the web client imports only this module at run
// time, so zod stays out of the mail shell (DESIGN §5 budget).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a route lives: its method and its full path, with `:name` for each path parameter. */
export interface RoutePath {
  method: HttpMethod;
  path: string;
}

export const route = <M extends HttpMethod, P extends string>(method: M, path: P) => ({ method, path });

/**
 * Method and path of every HTTP route the web client calls (SPEC §7), by name. Plain data with no schema in it,
 * so the client reads it without loading zod (DESIGN §5 budget); `routes` below adds the schemas.
 */
export const routePaths = {
  access: route('GET', '/auth/access'),
  rids: route('GET', '/auth/rids'),
  /** A full-page navigation, not a JSON call: the provider answers with redirects. */
  signIn: route('GET', '/auth/wm/login'),
  logOut: route('POST', '/auth/wm/logout'),
  /** Sign-in to one address with the password its owner set (the alias-only user, SPEC §6). */
  passwordSignIn: route('POST', '/auth/pw/login'),
  /**
   * The app's Log out, a full-page navigation: it ends the session, then the provider's (its end_session_endpoint),
   * which comes back to /login?noredirect=true. Only from our own pages.
   */
  logOutLink: route('GET', '/auth/wm/logout'),
  account: route('GET', '/api/v1/user/account'),
  folders: route('GET', '/api/v1/folders'),
  createFolder: route('POST', '/api/v1/folders'),
  updateFolder: route('POST', '/api/v1/folders/:id'),
  deleteFolder: route('DELETE', '/api/v1/folders/:id'),
  labels: route('GET', '/api/v1/labels'),
  createLabel: route('POST', '/api/v1/labels'),
  updateLabel: route('POST', '/api/v1/labels/:id'),
  deleteLabel: route('DELETE', '/api/v1/labels/:id'),
  folderMessages: route('GET', '/api/v1/messages/folder/:folder_id'),
  labelMessages: route('GET', '/api/v1/messages/label/:label_id'),
  searchMessages: route('POST', '/api/v1/messages/search'),
  message: route('GET', '/api/v1/messages/:folder_id/:uid'),
  /** A message found by its Message-ID header (a /mail?message_id= link). */
  messageById: route('GET', '/api/v1/messages'),
  markMessages: route('POST', '/api/v1/messages/mark'),
  moveMessages: route('POST', '/api/v1/messages/move'),
  deleteMessages: route('POST', '/api/v1/messages/delete'),
  emptyFolder: route('POST', '/api/v1/messages/empty'),
  bulkAction: route('POST', '/api/v1/messages/bulk'),
  sendMessage: route('POST', '/api/v1/messages/send'),
  saveDraft: route('POST', '/api/v1/messages/draft'),
  discardDraft: route('DELETE', '/api/v1/messages/draft/:uid'),
  /** What waits in Scheduled to be sent (held for undo, or sent later), soonest first. */
  scheduledSends: route('GET', '/api/v1/scheduled-sends'),
  /** Undo, Cancel or Edit: not sent; the copy goes back to Drafts. send_already_sent when it has gone. */
  cancelScheduledSend: route('POST', '/api/v1/scheduled-sends/:id/cancel'),
  sendScheduledNow: route('POST', '/api/v1/scheduled-sends/:id/send'),
  snoozeMessages: route('POST', '/api/v1/messages/snooze'),
  unsnoozeMessages: route('POST', '/api/v1/messages/unsnooze'),
  /** multipart/form-data with one file part (sent with XMLHttpRequest for its upload progress). */
  uploadAttachment: route('POST', '/api/v1/attachments'),
  copyAttachments: route('POST', '/api/v1/attachments/copy'),
  /** The file itself, always as a download. */
  attachment: route('GET', '/api/v1/attachments/:id'),
  decryptParams: route('GET', '/api/v1/decrypt/:id/params'),
  /** The ciphertext (application/octet-stream) once the authentication value is proven. */
  decrypt: route('POST', '/api/v1/decrypt'),
  /** A notice in the mailbox: its params (JSON) without auth, its ciphertext (octet-stream) with auth. */
  decryptMessage: route('POST', '/api/v1/messages/decrypt'),
  /** The account's filters (SPEC §7: response sieve_filter.filters) and the whole script. */
  filters: route('GET', '/api/v1/filters'),
  /** The whole list in its new order, or the whole script. */
  saveFilters: route('POST', '/api/v1/filters'),
  validateFilter: route('POST', '/api/v1/filters/validate'),
  testFilter: route('POST', '/api/v1/filters/test'),
  applyFilter: route('POST', '/api/v1/filters/apply'),
  filterRun: route('GET', '/api/v1/filters/runs/:id'),
  settings: route('GET', '/api/v1/user/settings'),
  /** A message's bytes exactly as stored, as a download (message/rfc822, `.eml`). */
  messageSource: route('GET', '/api/v1/messages/:folder_id/:uid/source'),
  /**
   * Exports, each one streamed download (mbox or a zip of .eml in folder paths, see schemas/export.ts): a folder,
   * a label's messages, a search's matches, the whole mailbox. A session held to one address gets its mail only.
   */
  exportFolder: route('GET', '/api/v1/export/folders/:folder_id'),
  exportLabel: route('GET', '/api/v1/export/labels/:label_id'),
  exportSearch: route('GET', '/api/v1/export/search'),
  exportMailbox: route('GET', '/api/v1/export'),
  /** Any subset of the settings. */
  changeSettings: route('POST', '/api/v1/user/settings'),
  createProfile: route('POST', '/api/v1/user/profiles'),
  updateProfile: route('POST', '/api/v1/user/profiles/:id'),
  deleteProfile: route('DELETE', '/api/v1/user/profiles/:id'),
  /** A page of contacts, or a search (SPEC §7: GET contacts?page=&size=, GET contacts?size=1000&search=). */
  contacts: route('GET', '/api/v1/contacts'),
  contact: route('GET', '/api/v1/contacts/:id'),
  createContact: route('POST', '/api/v1/contacts'),
  updateContact: route('POST', '/api/v1/contacts/:id'),
  deleteContact: route('DELETE', '/api/v1/contacts/:id'),
  /** The screen's bulk delete. */
  deleteContacts: route('POST', '/api/v1/contacts/delete'),
  /** The file as the body (vCard or CSV). */
  importContacts: route('POST', '/api/v1/contacts/import'),
  /** An import's progress and, when done, its result (the import runs as a job, a batch at a time). */
  contactImport: route('GET', '/api/v1/contacts/imports/:id'),
  /** Mail imports (issue 33): start one from an uploaded file, list them, read one's progress and report. */
  startMailImport: route('POST', '/api/v1/imports'),
  mailImports: route('GET', '/api/v1/imports'),
  mailImport: route('GET', '/api/v1/imports/:id'),
  /** An import file's chunked upload: begin one, ask how far it got, send a part, give it up. */
  createImportUpload: route('POST', '/api/v1/imports/uploads'),
  importUpload: route('GET', '/api/v1/imports/uploads/:id'),
  putImportUploadPart: route('PUT', '/api/v1/imports/uploads/:id/parts/:part'),
  deleteImportUpload: route('DELETE', '/api/v1/imports/uploads/:id'),
  /** A vCard 4.0 file, as a download. */
  exportContacts: route('GET', '/api/v1/contacts/export'),
  /** Compose's autocomplete. */
  suggestContacts: route('GET', '/api/v1/contacts/suggest'),
  /** Whether an address is a contact, or one the user has written to (the reader's 'add sender to contacts'). */
  knownContact: route('GET', '/api/v1/contacts/known'),
  groups: route('GET', '/api/v1/contacts/groups'),
  group: route('GET', '/api/v1/groups/:id'),
  createGroup: route('POST', '/api/v1/contacts/groups'),
  updateGroup: route('POST', '/api/v1/contacts/groups/:id'),
  groupMembers: route('POST', '/api/v1/contacts/groups/:id/contacts'),
  deleteGroup: route('DELETE', '/api/v1/contacts/groups/:id'),
  /** Every alias of the account with its status (the settings/aliases screen). */
  aliases: route('GET', '/api/v1/user/aliases'),
  /** The free alias. */
  createAlias: route('POST', '/api/v1/user/aliases'),
  deleteAlias: route('DELETE', '/api/v1/user/aliases/:id'),
  updateAliasAccess: route('PUT', '/api/v1/user/aliases/update_access'),
  paidAliases: route('GET', '/api/v1/user/aliases/paid'),
  createPaidAlias: route('POST', '/api/v1/user/aliases/paid'),
  /** 'I have already paid'. */
  checkAliasPayment: route('POST', '/api/v1/user/aliases/paid/:id/check_payment'),
  deletePaidAlias: route('DELETE', '/api/v1/user/aliases/paid/:id'),
  security: route('GET', '/api/v1/user/settings/security'),
  sendPasswordCode: route('POST', '/api/v1/user/settings/security/password/sendcode'),
  newPassword: route('POST', '/api/v1/user/settings/security/password/new'),
  changePassword: route('POST', '/api/v1/user/settings/security/password/change'),
  updateUserInfo: route('POST', '/api/v1/user/settings/security/userinfo'),
  authLog: route('GET', '/api/v1/user/settings/security/auth-log'),
  grantImpersonation: route('POST', '/api/v1/user/settings/security/impersonation'),
  revokeImpersonation: route('DELETE', '/api/v1/user/settings/security/impersonation'),
  grantBaImpersonation: route('POST', '/api/v1/user/settings/security/ba-impersonation'),
  revokeBaImpersonation: route('DELETE', '/api/v1/user/settings/security/ba-impersonation'),
  baList: route('GET', '/api/v1/user/settings/security/ba-list'),
  sharedMailboxes: route('GET', '/api/v1/user/shared-mailboxes'),
  /** Open a mailbox shared with this member; end: back to one's own. */
  impersonate: route('POST', '/auth/impersonate'),
  endImpersonation: route('POST', '/auth/impersonate/end'),
  supportRequests: route('GET', '/api/v1/user/support'),
  createSupportRequest: route('POST', '/api/v1/user/support'),
  supportDiagnostics: route('GET', '/api/v1/user/support/diagnostics'),
  /** The member's allow and block lists of senders (Settings → Spam, issue 30). */
  senders: route('GET', '/api/v1/user/spam/senders'),
  addSenders: route('POST', '/api/v1/user/spam/senders'),
  /** Every address of the address book onto the allow list. */
  allowContacts: route('POST', '/api/v1/user/spam/senders/contacts'),
  deleteSender: route('DELETE', '/api/v1/user/spam/senders'),
  /** Collectors (issue 18): discovery, create, list, change, delete. */
  findImap: route('POST', '/api/v1/user/collectors/find_imap'),
  collectors: route('GET', '/api/v1/user/collectors'),
  createCollector: route('POST', '/api/v1/user/collectors'),
  updateCollector: route('PUT', '/api/v1/user/collectors/:id'),
  deleteCollector: route('DELETE', '/api/v1/user/collectors/:id'),
  domains: route('GET', '/api/v1/user/domains'),
  /** The service's own domains on which members may take addresses. */
  publicDomains: route('GET', '/api/v1/user/domains/public'),
  domain: route('GET', '/api/v1/user/domains/:id'),
  createDomain: route('POST', '/api/v1/user/domains'),
  confirmDomain: route('POST', '/api/v1/user/domains/:id/confirm'),
  checkDomain: route('POST', '/api/v1/user/domains/:id/check'),
  /** 'I have already paid' for a paid domain. */
  checkDomainPayment: route('POST', '/api/v1/user/domains/:id/paid'),
  /** A new DKIM key pair published first, the old kept for the grace period. */
  rotateDomainDkim: route('POST', '/api/v1/user/domains/:id/dkim/rotate'),
  deleteDomain: route('DELETE', '/api/v1/user/domains/:id'),
  /** Every address of the account on any domain (own or public), with its domain_id: settings/access, public addresses. */
  allDomainEmails: route('GET', '/api/v1/user/domains/emails'),
  domainEmails: route('GET', '/api/v1/user/domains/:id/emails'),
  createDomainEmail: route('POST', '/api/v1/user/domains/:id/emails'),
  updateDomainEmail: route('PUT', '/api/v1/user/domains/:id/emails/:emailId'),
  delegateDomainEmail: route('PATCH', '/api/v1/user/domains/:id/emails/:emailId'),
  deleteDomainEmail: route('DELETE', '/api/v1/user/domains/:id/emails/:emailId'),
  /** Activates a prepared address once the domain's MX points at the service. */
  confirmDomainEmail: route('POST', '/api/v1/user/domains/emails/:emailId/confirm'),
  checkDomainEmailPayment: route('POST', '/api/v1/user/domains/:id/emails/:emailId/paid'),
  domainEmailAccess: route('PUT', '/api/v1/user/domains/:id/emails/:emailId/access'),
  /** settings/d_emails: addresses delegated to this member. */
  delegatedEmails: route('GET', '/api/v1/user/delegated-emails'),
  /** Open a delegated address (the owner's mailbox held to it); POST /auth/impersonate/end comes back. */
  openDelegated: route('POST', '/auth/delegated'),
} as const satisfies Record<string, RoutePath>;

export type RouteName = keyof typeof routePaths;

/** `path?query` with the defined values of `query` (as URLSearchParams encodes them). */
export function withQuery(path: string, query: Record<string, unknown> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/**
 * The address of a route with its path parameters filled in (percent-encoded) and its query: what the
 * web client calls and links to, and what the server writes into the pages it serves (attachment links).
 */
export function routeUrl(
  route: RoutePath,
  input: { params?: Record<string, string | number>; query?: unknown } = {},
): string {
  const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = input.params?.[name];
    if (value === undefined) throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  return withQuery(path, input.query as Record<string, unknown> | undefined);
}
