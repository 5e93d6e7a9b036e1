export {
  changeSettings,
  ensureAccount,
  getSettings,
  getUserInfo,
  ownerOnly,
  primaryAddress,
  requireAccount,
  requireFullSession,
  type AccountRow,
  type Principal,
} from './accounts.service.js';
export { findAccountByEmail, findAccountById, findAccountByMemberId } from './accounts.repository.js';
export { listProfiles, type ProfileRow } from './profiles.repository.js';
export { addProfile, changeProfile, removeProfile, type ProfileValues } from './profiles.service.js';
