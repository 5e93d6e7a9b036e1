export {
  ensureAccount,
  getUserInfo,
  primaryAddress,
  requireAccount,
  type AccountRow,
  type Principal,
} from './accounts.service.js';
export { accountRoutes } from '../user/user.routes.js';
