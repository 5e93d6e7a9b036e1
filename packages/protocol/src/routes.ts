import { z } from 'zod';
import {
  importUploadCreateSchema,
  importUploadPartParamsSchema,
  importUploadResponseSchema,
  mailImportResponseSchema,
  mailImportStartSchema,
  mailImportsResponseSchema,
} from './schemas/mail-imports.js';
import {
  cancelScheduledResponseSchema,
  scheduledIdParamsSchema,
  scheduledSendsResponseSchema,
  snoozeRequestSchema,
  unsnoozeRequestSchema,
} from './schemas/time-controls.js';
import { exportQuerySchema, folderExportQuerySchema, searchExportQuerySchema } from './schemas/export.js';
import {
  accessResponseSchema,
  loginQuerySchema,
  passwordLoginRequestSchema,
  passwordLoginResponseSchema,
  ridsResponseSchema,
} from './schemas/auth.js';
import {
  folderIdPathSchema,
  idParamSchema,
  okSchema,
  profileIdParamSchema,
  uidPathSchema,
} from './schemas/common.js';
import {
  collectorCreateSchema,
  collectorDeleteQuerySchema,
  collectorResponseSchema,
  collectorsResponseSchema,
  collectorUpdateSchema,
  findImapResponseSchema,
  findImapSchema,
} from './schemas/collectors.js';
import {
  senderDeleteQuerySchema,
  sendersAddResponseSchema,
  sendersAddSchema,
  sendersResponseSchema,
} from './schemas/spam.js';
import {
  decryptParamsSchema,
  decryptRequestSchema,
  encryptedIdSchema,
  messageDecryptRequestSchema,
} from './schemas/encrypted.js';
import {
  filterApplySchema,
  filterRunResponseSchema,
  filtersResponseSchema,
  filtersSaveSchema,
  filterTestResponseSchema,
  filterTestSchema,
  filterValidateResponseSchema,
  filterValidateSchema,
} from './schemas/filters.js';
import {
  contactExportQuerySchema,
  contactImportQuerySchema,
  contactImportResponseSchema,
  contactInputSchema,
  contactResponseSchema,
  contactsDeleteSchema,
  contactsQuerySchema,
  contactsResponseSchema,
  contactUpdateSchema,
  groupInputSchema,
  groupMembersSchema,
  groupResponseSchema,
  groupsResponseSchema,
  knownQuerySchema,
  knownResponseSchema,
  suggestQuerySchema,
  suggestResponseSchema,
} from './schemas/contacts.js';
import {
  folderCreateSchema,
  folderResponseSchema,
  foldersResponseSchema,
  folderUpdateSchema,
} from './schemas/folders.js';
import {
  labelCreateSchema,
  labelResponseSchema,
  labelsResponseSchema,
  labelUpdateSchema,
} from './schemas/labels.js';
import {
  actionResultSchema,
  bulkRequestSchema,
  deleteRequestSchema,
  emptyRequestSchema,
  markRequestSchema,
  moveRequestSchema,
  searchActionSchema,
} from './schemas/message-actions.js';
import {
  listQuerySchema,
  mailListResponseSchema,
  mailSchema,
  messageQuerySchema,
} from './schemas/messages.js';
import {
  composeRequestSchema,
  copyAttachmentsRequestSchema,
  copyAttachmentsResponseSchema,
  draftResponseSchema,
  sendResponseSchema,
  uploadResponseSchema,
} from './schemas/sending.js';
import {
  accountSchema,
  profileInputSchema,
  profilesResponseSchema,
  profileUpdateSchema,
  settingsResponseSchema,
  settingsUpdateSchema,
  userResponseSchema,
} from './schemas/user.js';
import {
  aliasAccessUpdateSchema,
  aliasCreateSchema,
  aliasesResponseSchema,
  aliasResponseSchema,
  paidAliasesResponseSchema,
  paidAliasResponseSchema,
} from './schemas/aliases.js';
import {
  delegatedEmailsResponseSchema,
  domainConfirmSchema,
  domainCreateSchema,
  domainDeleteQuerySchema,
  domainDetailResponseSchema,
  domainEmailAccessSchema,
  domainEmailCreateSchema,
  domainEmailDelegateSchema,
  domainEmailResponseSchema,
  domainEmailsResponseSchema,
  domainEmailUpdateSchema,
  domainResponseSchema,
  domainsResponseSchema,
  openDelegatedSchema,
  publicDomainsResponseSchema,
} from './schemas/domains.js';
import {
  authLogQuerySchema,
  authLogResponseSchema,
  baListResponseSchema,
  impersonateRequestSchema,
  memberIdQuerySchema,
  passwordSetRequestSchema,
  securityResponseSchema,
  sendCodeRequestSchema,
  sendCodeResponseSchema,
  sharedMailboxesResponseSchema,
  supportCreateSchema,
  supportDiagnosticsResponseSchema,
  supportRequestsResponseSchema,
  supportResponseSchema,
  userInfoUpdateSchema,
} from './schemas/security.js';
import { route, routePaths, type RouteName, type RoutePath } from './route-paths.js';

export * from './route-paths.js';

/** What a route accepts and answers; a route without `response` does not answer JSON (a file, a redirect). */
export interface RouteSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
}

const showImagesQuerySchema = z.object({
  show_images: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'true keeps remote images, each pointed at the image proxy (GET image-proxy); false leaves them out ' +
        '(images_blocked says so); without it the image_display setting decides (always; never; correspondent: ' +
        'shown when the sender is a contact or an address the user has written to)',
    ),
});
const mailResponseSchema = z.object({ message: mailSchema });
/** An address on a domain, by its domain and its own id (user/domains/{id}/emails/{email_id}). */
const domainEmailParamsSchema = z.object({ id: idParamSchema, emailId: idParamSchema });

const schemas = {
  access: { response: accessResponseSchema },
  rids: { response: ridsResponseSchema },
  signIn: { query: loginQuerySchema },
  logOut: { response: okSchema },
  passwordSignIn: { body: passwordLoginRequestSchema, response: passwordLoginResponseSchema },
  logOutLink: {},
  account: { response: accountSchema },
  folders: { response: foldersResponseSchema },
  createFolder: { body: folderCreateSchema, response: folderResponseSchema },
  updateFolder: {
    params: z.object({ id: idParamSchema }),
    body: folderUpdateSchema,
    response: folderResponseSchema,
  },
  deleteFolder: { params: z.object({ id: idParamSchema }), response: okSchema },
  labels: { response: labelsResponseSchema },
  createLabel: { body: labelCreateSchema, response: labelResponseSchema },
  updateLabel: {
    params: z.object({ id: idParamSchema }),
    body: labelUpdateSchema,
    response: labelResponseSchema,
  },
  deleteLabel: { params: z.object({ id: idParamSchema }), response: okSchema },
  folderMessages: {
    params: z.object({ folder_id: folderIdPathSchema }),
    query: listQuerySchema,
    response: mailListResponseSchema,
  },
  labelMessages: {
    params: z.object({ label_id: idParamSchema }),
    query: listQuerySchema,
    response: mailListResponseSchema,
  },
  searchMessages: { body: messageQuerySchema.strict(), response: mailListResponseSchema },
  message: {
    params: z.object({ folder_id: folderIdPathSchema, uid: uidPathSchema }),
    query: showImagesQuerySchema,
    response: mailResponseSchema,
  },
  messageById: {
    query: showImagesQuerySchema.extend({ message_id: z.string().min(1).max(1000) }),
    response: mailResponseSchema,
  },
  markMessages: { body: markRequestSchema, response: actionResultSchema },
  moveMessages: { body: moveRequestSchema, response: actionResultSchema },
  deleteMessages: { body: deleteRequestSchema, response: actionResultSchema },
  emptyFolder: { body: emptyRequestSchema, response: actionResultSchema },
  bulkAction: { body: bulkRequestSchema, response: actionResultSchema },
  sendMessage: { body: composeRequestSchema, response: sendResponseSchema },
  saveDraft: { body: composeRequestSchema, response: draftResponseSchema },
  discardDraft: { params: z.object({ uid: uidPathSchema }), response: okSchema },
  scheduledSends: { response: scheduledSendsResponseSchema },
  cancelScheduledSend: { params: scheduledIdParamsSchema, response: cancelScheduledResponseSchema },
  sendScheduledNow: { params: scheduledIdParamsSchema, response: okSchema },
  snoozeMessages: { body: snoozeRequestSchema, response: actionResultSchema },
  unsnoozeMessages: { body: unsnoozeRequestSchema, response: actionResultSchema },
  uploadAttachment: { response: uploadResponseSchema },
  copyAttachments: { body: copyAttachmentsRequestSchema, response: copyAttachmentsResponseSchema },
  attachment: {
    params: z.object({ id: idParamSchema }),
    query: z.object({
      message_uid: z.coerce
        .number()
        .int()
        .positive()
        .max(2 ** 31 - 1),
      folder_id: idParamSchema,
    }),
  },
  decryptParams: { params: z.object({ id: encryptedIdSchema }), response: decryptParamsSchema },
  decrypt: { body: decryptRequestSchema },
  decryptMessage: { body: messageDecryptRequestSchema, response: decryptParamsSchema },
  filters: { response: filtersResponseSchema },
  saveFilters: { body: filtersSaveSchema, response: filtersResponseSchema },
  validateFilter: { body: filterValidateSchema, response: filterValidateResponseSchema },
  testFilter: { body: filterTestSchema, response: filterTestResponseSchema },
  applyFilter: { body: filterApplySchema, response: filterRunResponseSchema },
  filterRun: { params: z.object({ id: idParamSchema }), response: filterRunResponseSchema },
  messageSource: { params: z.object({ folder_id: folderIdPathSchema, uid: uidPathSchema }) },
  exportFolder: { params: z.object({ folder_id: idParamSchema }), query: folderExportQuerySchema },
  exportLabel: { params: z.object({ label_id: idParamSchema }), query: exportQuerySchema },
  exportSearch: { query: searchExportQuerySchema },
  exportMailbox: { query: exportQuerySchema },
  settings: { response: settingsResponseSchema },
  changeSettings: { body: settingsUpdateSchema, response: settingsResponseSchema },
  createProfile: { body: profileInputSchema, response: profilesResponseSchema },
  updateProfile: {
    params: z.object({ id: profileIdParamSchema }),
    body: profileUpdateSchema,
    response: profilesResponseSchema,
  },
  deleteProfile: { params: z.object({ id: profileIdParamSchema }), response: profilesResponseSchema },
  contacts: { query: contactsQuerySchema, response: contactsResponseSchema },
  contact: { params: z.object({ id: idParamSchema }), response: contactResponseSchema },
  createContact: { body: contactInputSchema, response: contactResponseSchema },
  updateContact: {
    params: z.object({ id: idParamSchema }),
    body: contactUpdateSchema,
    response: contactResponseSchema,
  },
  deleteContact: { params: z.object({ id: idParamSchema }), response: okSchema },
  deleteContacts: { body: contactsDeleteSchema, response: okSchema },
  importContacts: { query: contactImportQuerySchema, response: contactImportResponseSchema },
  contactImport: { params: z.object({ id: idParamSchema }), response: contactImportResponseSchema },
  startMailImport: { body: mailImportStartSchema, response: mailImportResponseSchema },
  mailImports: { response: mailImportsResponseSchema },
  mailImport: { params: z.object({ id: idParamSchema }), response: mailImportResponseSchema },
  createImportUpload: { body: importUploadCreateSchema, response: importUploadResponseSchema },
  importUpload: { params: z.object({ id: idParamSchema }), response: importUploadResponseSchema },
  putImportUploadPart: { params: importUploadPartParamsSchema, response: importUploadResponseSchema },
  deleteImportUpload: { params: z.object({ id: idParamSchema }), response: okSchema },
  exportContacts: { query: contactExportQuerySchema },
  suggestContacts: { query: suggestQuerySchema, response: suggestResponseSchema },
  knownContact: { query: knownQuerySchema, response: knownResponseSchema },
  groups: { response: groupsResponseSchema },
  group: { params: z.object({ id: idParamSchema }), response: groupResponseSchema },
  createGroup: { body: groupInputSchema, response: groupResponseSchema },
  updateGroup: {
    params: z.object({ id: idParamSchema }),
    body: groupInputSchema,
    response: groupResponseSchema,
  },
  groupMembers: {
    params: z.object({ id: idParamSchema }),
    body: groupMembersSchema,
    response: groupResponseSchema,
  },
  deleteGroup: { params: z.object({ id: idParamSchema }), response: okSchema },
  aliases: { response: aliasesResponseSchema },
  createAlias: { body: aliasCreateSchema, response: aliasResponseSchema },
  deleteAlias: { params: z.object({ id: idParamSchema }), response: okSchema },
  updateAliasAccess: { body: aliasAccessUpdateSchema, response: aliasResponseSchema },
  paidAliases: { response: paidAliasesResponseSchema },
  createPaidAlias: { body: aliasCreateSchema, response: paidAliasResponseSchema },
  checkAliasPayment: { params: z.object({ id: idParamSchema }), response: paidAliasResponseSchema },
  deletePaidAlias: { params: z.object({ id: idParamSchema }), response: okSchema },
  security: { response: securityResponseSchema },
  sendPasswordCode: { body: sendCodeRequestSchema, response: sendCodeResponseSchema },
  newPassword: { body: passwordSetRequestSchema, response: securityResponseSchema },
  changePassword: { body: passwordSetRequestSchema, response: securityResponseSchema },
  updateUserInfo: { body: userInfoUpdateSchema, response: securityResponseSchema },
  authLog: { query: authLogQuerySchema, response: authLogResponseSchema },
  grantImpersonation: { query: memberIdQuerySchema, response: securityResponseSchema },
  revokeImpersonation: { query: memberIdQuerySchema, response: securityResponseSchema },
  grantBaImpersonation: { query: memberIdQuerySchema, response: securityResponseSchema },
  revokeBaImpersonation: { query: memberIdQuerySchema, response: securityResponseSchema },
  baList: { response: baListResponseSchema },
  sharedMailboxes: { response: sharedMailboxesResponseSchema },
  impersonate: { body: impersonateRequestSchema, response: accessResponseSchema },
  endImpersonation: { response: accessResponseSchema },
  supportRequests: { response: supportRequestsResponseSchema },
  createSupportRequest: { body: supportCreateSchema, response: supportResponseSchema },
  supportDiagnostics: { response: supportDiagnosticsResponseSchema },
  findImap: { body: findImapSchema, response: findImapResponseSchema },
  senders: { response: sendersResponseSchema },
  addSenders: { body: sendersAddSchema, response: sendersAddResponseSchema },
  allowContacts: { response: sendersAddResponseSchema },
  deleteSender: { query: senderDeleteQuerySchema, response: okSchema },
  collectors: { response: collectorsResponseSchema },
  createCollector: { body: collectorCreateSchema, response: collectorResponseSchema },
  updateCollector: {
    params: z.object({ id: idParamSchema }),
    body: collectorUpdateSchema,
    response: collectorResponseSchema,
  },
  deleteCollector: {
    params: z.object({ id: idParamSchema }),
    query: collectorDeleteQuerySchema,
    response: okSchema,
  },
  domains: { response: domainsResponseSchema },
  publicDomains: { response: publicDomainsResponseSchema },
  domain: { params: z.object({ id: idParamSchema }), response: domainDetailResponseSchema },
  createDomain: { body: domainCreateSchema, response: domainResponseSchema },
  confirmDomain: {
    params: z.object({ id: idParamSchema }),
    body: domainConfirmSchema,
    response: domainDetailResponseSchema,
  },
  checkDomain: { params: z.object({ id: idParamSchema }), response: domainDetailResponseSchema },
  checkDomainPayment: { params: z.object({ id: idParamSchema }), response: domainResponseSchema },
  rotateDomainDkim: { params: z.object({ id: idParamSchema }), response: domainDetailResponseSchema },
  deleteDomain: {
    params: z.object({ id: idParamSchema }),
    query: domainDeleteQuerySchema,
    response: okSchema,
  },
  allDomainEmails: { response: domainEmailsResponseSchema },
  domainEmails: { params: z.object({ id: idParamSchema }), response: domainEmailsResponseSchema },
  createDomainEmail: {
    params: z.object({ id: idParamSchema }),
    body: domainEmailCreateSchema,
    response: domainEmailResponseSchema,
  },
  updateDomainEmail: {
    params: domainEmailParamsSchema,
    body: domainEmailUpdateSchema,
    response: domainEmailResponseSchema,
  },
  delegateDomainEmail: {
    params: domainEmailParamsSchema,
    body: domainEmailDelegateSchema,
    response: domainEmailResponseSchema,
  },
  deleteDomainEmail: { params: domainEmailParamsSchema, response: okSchema },
  confirmDomainEmail: {
    params: z.object({ emailId: idParamSchema }),
    response: domainEmailResponseSchema,
  },
  checkDomainEmailPayment: { params: domainEmailParamsSchema, response: domainEmailResponseSchema },
  domainEmailAccess: {
    params: domainEmailParamsSchema,
    body: domainEmailAccessSchema,
    response: domainEmailResponseSchema,
  },
  delegatedEmails: { response: delegatedEmailsResponseSchema },
  openDelegated: { body: openDelegatedSchema, response: accessResponseSchema },
} satisfies { [K in RouteName]: RouteSchemas };

/**
 * Routes only the server and other clients use (the web app does not call them), with their schemas. Kept out of
 * routePaths so the web client does not carry them; the server registers them from this table like the others.
 */
const serverRoutes = {
  user: { ...route('GET', '/api/v1/user'), response: userResponseSchema },
  searchDelete: {
    ...route('POST', '/api/v1/messages/search/delete'),
    body: searchActionSchema,
    response: actionResultSchema,
  },
  searchMove: {
    ...route('POST', '/api/v1/messages/search/move'),
    body: searchActionSchema,
    response: actionResultSchema,
  },
  searchMark: {
    ...route('POST', '/api/v1/messages/search/mark'),
    body: searchActionSchema,
    response: actionResultSchema,
  },
  /** A remote image of a message, fetched by the server (the reader's HTML points at it). */
  imageProxy: {
    ...route('GET', '/api/v1/image-proxy'),
    query: z.object({ url: z.string().min(1).max(8192), sig: z.string().min(1).max(100) }),
  },
  signInCallback: route('GET', '/auth/wm/callback'),
  /**
   * The wallet's signed notice of an invoice's new status (header X-Wallet-Signature: t=<unix seconds>,v1=<hex
   * HMAC-SHA256 of "<t>.<raw body>" with WALLET_WEBHOOK_SECRET>); answered 200 once recorded, whatever the order or
   * how often it comes.
   */
  walletWebhook: {
    ...route('POST', '/api/v1/wallet/webhook'),
    body: z.object({
      event_id: z.string().min(1).max(200),
      invoice_id: z.string().min(1).max(200),
      status: z.enum(['unpaid', 'paid', 'rejected', 'expired', 'cancelled']),
      at: z.string().max(40),
    }),
    response: okSchema,
  },
} satisfies Record<string, RoutePath & RouteSchemas>;

export type RouteTable = { [K in RouteName]: (typeof routePaths)[K] & (typeof schemas)[K] };

/** Every route of the API: those the web calls and the server-only ones. */
export type ApiRouteTable = RouteTable & typeof serverRoutes;
export type ApiRouteName = keyof ApiRouteTable;

/**
 * The route table: method, path, and the schemas of params, query, body and response of each route. The server
 * registers its routes from it and the web client calls them by it (through routePaths, at run time).
 */
export const routes = Object.fromEntries(
  (Object.keys(routePaths) as RouteName[]).map((name) => [name, { ...routePaths[name], ...schemas[name] }]),
  // Through unknown: comparing the entries' union with RouteTable is past what tsc will check ("excessive complexity").
) as unknown as RouteTable;

/** The whole API: `routes` and the server-only routes. The server registers every route from it. */
export const apiRoutes: ApiRouteTable = { ...routes, ...serverRoutes };

/** The names of a path's `:name` parameters, e.g. 'folder_id' | 'uid'. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a caller passes for route K: path parameters, query and body as the schemas accept them. */
export type RouteParams<K extends RouteName> = Record<
  PathParamNames<(typeof routePaths)[K]['path']>,
  string | number
>;
export type RouteQuery<K extends RouteName> = RouteTable[K] extends { query: infer S } ? Input<S> : undefined;
export type RouteBody<K extends RouteName> = RouteTable[K] extends { body: infer S } ? Input<S> : undefined;
/** What route K answers, as its response schema describes it (unknown for a route that answers no JSON). */
export type RouteResponse<K extends RouteName> = RouteTable[K] extends { response: infer S extends z.ZodType }
  ? z.output<S>
  : unknown;

/** The name of the route a routePaths entry is (method and path together identify it). */
export type RouteNameOf<R extends RoutePath> = {
  [K in RouteName]: (typeof routePaths)[K] extends R ? (R extends (typeof routePaths)[K] ? K : never) : never;
}[RouteName];
