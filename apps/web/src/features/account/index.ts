// Who is signed in and their account (settings, profiles, aliases, quota): the data every other area reads.
export {
  accountKeys,
  refreshWithAccount,
  sessionQueries,
  useAccount,
  useAccountWrite,
  useRid,
  useUser,
  writeAccount,
} from './queries';
export { logOut, logOutUrl, savedRedirectPath, signInUrl } from './sign-on';
export { ownAddresses } from './own-addresses';
export { PassportNeeded, usePassportTooLow } from './passport';
