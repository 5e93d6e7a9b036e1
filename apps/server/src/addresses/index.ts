export {
  activeAddressOwner,
  delegatedEmailsOf,
  listAliases,
  lockDelegatedAddress,
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
export { srsForward, srsKeyOf, srsReverse, SRS_MAX_AGE_DAYS, type SrsReverse } from './srs.js';
export {
  accessPasswordHash,
  ALIAS_ACCESS_CHANGES_PER_HOUR,
  changePasswordAccess,
  grantPasswordAccess,
  passwordAccessAccount,
  signInWithPassword,
} from './password-access.js';
export { dkimKeyFor, setDkimKey, type DkimKeyInput, type DkimKeyResult } from './dkim.js';
export {
  DMARC_VALUE,
  dkimPublicKeyIn,
  dkimRecordName,
  dkimTxtValue,
  isServiceDomain,
  parseDomainName,
  spfIncludes,
  spfValue,
  spfWithInclude,
  splitTxt,
  verificationOf,
  zoneSnippet,
} from './domain-names.js';
export { newDkimPair } from './domain-dkim.js';
export { newDomainToken, verificationTokensIn } from './domain-proof.js';
export {
  DOMAIN_GRACE_MS,
  dnsAnswers,
  promoteSeenKeys,
  recheckVerified,
  verifyDomain,
  type DomainDeps,
  type DomainSettings,
} from './domain-verification.js';
export {
  domainSigningKeys,
  runDomainUpkeep,
  syncPublicDomainRows,
  type DomainSigningKey,
  type DomainUpkeepDeps,
  type DomainUpkeepResult,
} from './domain-upkeep.js';
// The rows of aliases, own domains and addresses on them, for the screens' services in user/ (which end sessions,
// so sit above auth); the SQL stays here, with the lookups lower layers use.
export { deletePasswordAccess } from './addresses.repository.js';
export {
  findAccountAlias,
  hasAliasHolding,
  insertAlias,
  isAliasNameTaken,
  listAccountAliases,
  lockAccountAlias,
  lockActiveAliasByEmail,
  lockPaidAlias,
  markAliasDeleted,
  reviveFailedAlias,
  setAliasInvoice,
  setAliasStatus,
  type AliasRow,
} from './aliases.repository.js';
export {
  countOwnDomainEmails,
  deleteDelegation,
  findDomainKind,
  findUsableDomain,
  insertDelegation,
  insertDomainEmail,
  listDomainEmails,
  lockDomain,
  lockDomainEmail,
  lockDomainEmailById,
  setCatchAll,
  setDomainEmailStatus,
  type DomainEmailRow,
  type DomainRef,
} from './domain-emails.repository.js';
export {
  countFreeDomains,
  findAccountDomain,
  hasUnpaidDomain,
  insertDomain,
  insertDomainKeys,
  listAccountDomains,
  listDomainKeys,
  listPublicDomains,
  lockAccountDomain,
  lockOwnDomain,
  nameHolding,
  removeDomainRows,
  updateDomain,
  type DomainKeyRow,
  type DomainRow,
} from './domains.repository.js';
