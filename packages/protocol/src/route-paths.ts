// The route table's addresses, apart from its schemas (routes.ts): the web client imports only this module at run
// time, so zod stays out of the mail shell (DESIGN §5 budget).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a route lives: its method and its full path, with `:name` for each path parameter. */
export interface RoutePath {
  method: HttpMethod;
  path: string;
}

const route = <M extends HttpMethod, P extends string>(method: M, path: P) => ({ method, path });

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
  account: route('GET', '/api/v1/user/account'),
  folders: route('GET', '/api/v1/folders'),
  createFolder: route('POST', '/api/v1/folders'),
  labels: route('GET', '/api/v1/labels'),
  createLabel: route('POST', '/api/v1/labels'),
  folderMessages: route('GET', '/api/v1/messages/folder/:folder_id'),
  labelMessages: route('GET', '/api/v1/messages/label/:label_id'),
  searchMessages: route('POST', '/api/v1/messages/search'),
  message: route('GET', '/api/v1/messages/:folder_id/:uid'),
  markMessages: route('POST', '/api/v1/messages/mark'),
  moveMessages: route('POST', '/api/v1/messages/move'),
  deleteMessages: route('POST', '/api/v1/messages/delete'),
  emptyFolder: route('POST', '/api/v1/messages/empty'),
  bulkAction: route('POST', '/api/v1/messages/bulk'),
  sendMessage: route('POST', '/api/v1/messages/send'),
  saveDraft: route('POST', '/api/v1/messages/draft'),
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
} as const satisfies Record<string, RoutePath>;

export type RouteName = keyof typeof routePaths;
