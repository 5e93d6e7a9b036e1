export {
  changeSettings,
  ensureAccount,
  getSettings,
  getUserInfo,
  ownAccountOnly,
  ownerOnly,
  setAccountNames,
  primaryAddress,
  requireAccount,
  requireFullSession,
  type AccountRow,
  type Principal,
} from './accounts.service.js';
export { findAccountByEmail, findAccountById, findAccountByMemberId } from './accounts.repository.js';
export {
  clearDefaultProfile,
  countProfiles,
  deleteProfileRow,
  insertProfile,
  listProfiles,
  lockProfile,
  oldestProfile,
  updateProfileRow,
  type ProfileRow,
} from './profiles.repository.js';
export {
  parsePassportLevel,
  passportLevelAtLeast,
  passportLevelOf,
  setPassportLevel,
} from './passport-level.js';
