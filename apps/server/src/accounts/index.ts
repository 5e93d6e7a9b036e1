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
export {
  findAccountByEmail,
  findAccountById,
  findAccountByMemberId,
  listProfiles,
} from './accounts.repository.js';
