import { accountPartHandler } from '../../api/live';

/**
 * `aliasKeys.all` of queries.ts, spelled here again on purpose (as contacts/live.ts does): importing queries.ts would
 * put a chunk shared with the aliases screen into the mail shell's list of chunks to preload (DESIGN §5); live.test.ts
 * holds the two equal. (The account's own aliases, for the sidebar and compose, are the account feature's handler's.)
 */
const aliasesKey = ['aliases'] as const;

/** An alias created, paid, given up or deleted (here, in another tab, or by the wallet's answer): read them again. */
export const aliasesLiveHandler = accountPartHandler('aliases', aliasesKey);
