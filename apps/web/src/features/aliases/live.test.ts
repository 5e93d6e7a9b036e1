import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { aliasesLiveHandler } from './live';
import { aliasKeys } from './queries';
import { stale } from '../../test/query-cache';

describe('aliases on the websocket', () => {
  it("updateAccount 'aliases' reads the list and the paid aliases again", () => {
    const client = new QueryClient();
    client.setQueryData([...aliasKeys.list], { aliases: [] });
    client.setQueryData([...aliasKeys.paid], { paid_aliases: [] });
    aliasesLiveHandler.onEvent({ event: 'updateAccount', part: 'aliases' }, client);
    expect(stale(client, aliasKeys.list)).toBe(true);
    expect(stale(client, aliasKeys.paid)).toBe(true);
  });

  it('other parts and mail events leave them alone', () => {
    const client = new QueryClient();
    client.setQueryData([...aliasKeys.list], { aliases: [] });
    aliasesLiveHandler.onEvent({ event: 'updateAccount', part: 'settings' }, client);
    aliasesLiveHandler.onEvent({ event: 'updateMailboxList' }, client);
    expect(stale(client, aliasKeys.list)).toBe(false);
  });

  it('refreshes after a gap exactly the keys queries.ts uses', () => {
    expect(aliasesLiveHandler.refreshAfterGap).toEqual([aliasKeys.all]);
  });
});
