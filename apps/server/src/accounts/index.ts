export {
  ensureAccount,
  getUserInfo,
  primaryAddress,
  requireAccount,
  type AccountRow,
  type Principal,
} from './accounts.service.js';
export { accountRoutes } from './accounts.routes.js';
