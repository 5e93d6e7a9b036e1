import { accountPartHandler } from '../../api/live';

/**
 * `domainKeys.all` of queries.ts, spelled here again on purpose (as aliases/live.ts does): importing queries.ts would
 * put a chunk shared with the domain screens into the mail shell's list of chunks to preload (DESIGN §5); live.test.ts
 * holds the two equal. (The addresses delegated to this member are the shell's handler's: the sidebar lists them.)
 */
const domainsKey = ['domains'] as const;

/** A domain verified, re-checked, paid or removed, an address added, delegated or removed (here, in another tab, by the daily job): read them again. */
export const domainsLiveHandler = accountPartHandler('domains', domainsKey);
