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
export { srsForward, srsKeyOf, srsReverse, SRS_MAX_AGE_DAYS, type SrsReverse } from './srs.js';
export { grantPasswordAccess, passwordAccessAccount, signInWithPassword } from './password-access.js';
export { dkimKeyFor, setDkimKey, type DkimKeyInput, type DkimKeyResult } from './dkim.js';
export {
  ALIAS_ACCESS_CHANGES_PER_HOUR,
  aliasEntryOf,
  aliasesOf,
  changeAliasAccess,
  createFreeAlias,
} from './aliases.service.js';
export {
  ALIAS_INVOICE_PURPOSE,
  aliasInvoicePurpose,
  checkAliasPayment,
  createPaidAlias,
  deletePaidAlias,
  paidAliasesOf,
  removeAlias,
  type PaidAliasDeps,
} from './paid-aliases.service.js';
export {
  activeAddressOwner,
  changeDomainEmailAccess,
  checkDomainEmailPayment,
  confirmDomainEmail,
  createDomainEmail,
  delegatedEmailsOf,
  deleteDomainEmail,
  DOMAIN_EMAIL_INVOICE_PURPOSE,
  domainEmailInvoicePurpose,
  allDomainEmailsOf,
  domainEmailsOf,
  lockDelegatedAddress,
  setDomainEmailDelegate,
  updateDomainEmail,
  type DomainEmailDeps,
} from './domain-emails.service.js';
export {
  addDomain,
  checkDomain,
  checkDomainPayment,
  confirmDomain,
  DOMAIN_INVOICE_PURPOSE,
  domainDetailOf,
  domainInvoicePurpose,
  domainsOf,
  publicDomainsOf,
  removeDomain,
  rotateDomainDkim,
  syncPublicDomainRows,
  type DomainDeps,
  type DomainSettings,
} from './domains.service.js';
export {
  domainSigningKeys,
  runDomainUpkeep,
  type DomainSigningKey,
  type DomainUpkeepDeps,
  type DomainUpkeepResult,
} from './domain-upkeep.js';
