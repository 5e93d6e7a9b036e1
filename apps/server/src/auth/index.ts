export { SIGNED_OUT_PATH, authRoutes } from './auth.routes.js';
export { OidcClient } from './oidc-client.js';
export { sessionPlugin } from './session-plugin.js';
export {
  SESSION_COOKIE,
  createSession,
  deleteExpiredSessions,
  deleteSession,
  endAddressSessions,
  revokeSession,
  findLiveSession,
  findSession,
  sessionIdOf,
  deleteSessionsWhere,
  announceEndedSessions,
  returnDelegatedSessions,
  type LiveSession,
  type SessionSelection,
} from './sessions.js';
export {
  adoptSession,
  createSwitchedSession,
  startSession,
  type SessionDeps,
  type SwitchedSession,
} from './session-start.js';
export {
  deleteOldAuthLog,
  listAuthLog,
  recordSignIns,
  signInClientOf,
  type SignInClient,
  type SignInEntry,
} from './auth-log.js';
export { DEV_IDP_PATH, devIdpRoutes } from './dev-idp/dev-idp.js';
export { deleteExpiredIdpModels } from './dev-idp/idp-store.js';
export { createIdpUser, verifyIdpUser } from './dev-idp/idp-users.js';
export { deleteQuietSignInThrottles } from './sign-in-throttle.js';
