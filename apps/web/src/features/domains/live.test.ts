import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { shellLiveHandler } from '../shell/live';
import { delegatedEmailsKey } from '../shell';
import { sidebarDelegatedKey } from '../shell/delegated-addresses';
import { accountLiveHandler } from '../account/live';
import { accountKeys } from '../account';
import { domainsLiveHandler } from './live';
import { domainKeys } from './queries';
import { aliasListKey } from './access-addresses';
import { aliasKeys } from '../aliases/queries';
import { stale } from '../../test/query-cache';

describe('domains on the websocket', () => {
  it("updateAccount 'domains' reads the list, a domain's detail and its addresses again, and the account", () => {
    const client = new QueryClient();
    client.setQueryData([...domainKeys.list], []);
    client.setQueryData([...domainKeys.detail(3)], {});
    client.setQueryData([...domainKeys.emails(3)], []);
    client.setQueryData([...accountKeys.account], {});
    for (const handler of [domainsLiveHandler, accountLiveHandler])
      handler.onEvent({ event: 'updateAccount', part: 'domains' }, client);
    expect(stale(client, domainKeys.list)).toBe(true);
    expect(stale(client, domainKeys.detail(3))).toBe(true);
    expect(stale(client, domainKeys.emails(3))).toBe(true);
    // Its addresses are in the sidebar's address list and compose's From, which come with the account.
    expect(stale(client, accountKeys.account)).toBe(true);
  });

  it("updateAccount 'delegated' reads the addresses delegated to this member again, and nothing of the domains", () => {
    const client = new QueryClient();
    client.setQueryData([...delegatedEmailsKey], []);
    client.setQueryData([...domainKeys.list], []);
    for (const handler of [domainsLiveHandler, shellLiveHandler])
      handler.onEvent({ event: 'updateAccount', part: 'delegated' }, client);
    expect(stale(client, delegatedEmailsKey)).toBe(true);
    expect(stale(client, domainKeys.list)).toBe(false);
  });

  it('other parts and mail events leave them alone', () => {
    const client = new QueryClient();
    client.setQueryData([...domainKeys.list], []);
    client.setQueryData([...delegatedEmailsKey], []);
    for (const handler of [domainsLiveHandler, shellLiveHandler]) {
      handler.onEvent({ event: 'updateAccount', part: 'aliases' }, client);
      handler.onEvent({ event: 'updateMailboxList' }, client);
    }
    expect(stale(client, domainKeys.list)).toBe(false);
    expect(stale(client, delegatedEmailsKey)).toBe(false);
  });

  it('refreshes after a gap exactly the keys queries.ts uses', () => {
    expect(domainsLiveHandler.refreshAfterGap).toEqual([domainKeys.all]);
    expect(shellLiveHandler.refreshAfterGap).toContainEqual(delegatedEmailsKey);
    // The sidebar's list spells the key again (to stay out of the shell's first chunk): the same list.
    expect(sidebarDelegatedKey).toEqual(delegatedEmailsKey);
  });
});

describe('keys spelled again to keep chunks apart', () => {
  it("the access page's alias list is the aliases screen's", () => {
    expect(aliasListKey).toEqual(aliasKeys.list);
  });
});
