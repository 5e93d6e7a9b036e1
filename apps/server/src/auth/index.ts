export { SIGNED_OUT_PATH, authRoutes } from './auth.routes.js';
export { OidcClient } from './oidc-client.js';
export { sessionPlugin } from './session-plugin.js';
export {
  SESSION_COOKIE,
  createSession,
  deleteExpiredSessions,
  deleteSession,
  revokeSession,
  findLiveSession,
  findSession,
  sessionIdOf,
  type LiveSession,
} from './sessions.js';
export { DEV_IDP_PATH, devIdpRoutes } from './dev-idp/dev-idp.js';
export { deleteExpiredIdpModels } from './dev-idp/idp-store.js';
export { createIdpUser, verifyIdpUser } from './dev-idp/idp-users.js';
export { deleteQuietSignInThrottles } from './sign-in-throttle.js';
