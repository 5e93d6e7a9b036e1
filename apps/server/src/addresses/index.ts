export {
  listAliases,
  narrowScope,
  ownAddress,
  scopeOf,
  senderAddressesOf,
  type SenderAddress,
} from './addresses.service.js';
export {
  isHostedDomain,
  resolveRecipient,
  splitAddress,
  type LocalRecipient,
  type RecipientResolution,
} from './recipients.js';
export { grantPasswordAccess, passwordAccessAccount, signInWithPassword } from './password-access.js';
export { dkimKeyFor, setDkimKey, type DkimKeyInput, type DkimKeyResult } from './dkim.js';
