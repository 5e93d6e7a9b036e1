export {
  changeSettings,
  ensureAccount,
  getSettings,
  getUserInfo,
  primaryAddress,
  requireAccount,
  type AccountRow,
  type Principal,
} from './accounts.service.js';
export { findAccountByEmail, findAccountById, listProfiles } from './accounts.repository.js';
