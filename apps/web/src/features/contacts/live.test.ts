import { describe, expect, it } from 'vitest';
import { contactsLiveHandler } from './live';
import { contactKeys } from './queries';
import { clientWith, stale } from '../../test/query-cache';

describe('contacts on the websocket', () => {
  it('a change of contacts or of groups in another tab reads the lists, the groups and known senders again', () => {
    for (const part of ['contacts', 'groups'] as const) {
      const client = clientWith([
        contactKeys.page(1, 100),
        contactKeys.search('ann'),
        contactKeys.groups,
        contactKeys.group(3),
        contactKeys.known('Ann@Example.test'),
      ]);
      contactsLiveHandler.onEvent({ event: 'updateAccount', part }, client);
      expect(stale(client, contactKeys.page(1, 100))).toBe(true);
      expect(stale(client, contactKeys.search('ann'))).toBe(true);
      expect(stale(client, contactKeys.groups)).toBe(true);
      expect(stale(client, contactKeys.group(3))).toBe(true);
      expect(stale(client, contactKeys.known('ann@example.test'))).toBe(true);
    }
  });

  it('other parts of the account and mail events leave the contacts alone', () => {
    const client = clientWith([contactKeys.page(1, 100), contactKeys.groups]);
    contactsLiveHandler.onEvent({ event: 'updateAccount', part: 'settings' }, client);
    contactsLiveHandler.onEvent({ event: 'updateMailboxList' }, client);
    expect(stale(client, contactKeys.page(1, 100))).toBe(false);
    expect(stale(client, contactKeys.groups)).toBe(false);
  });

  it('refreshes after a gap exactly the keys queries.ts uses', () => {
    expect(contactsLiveHandler.refreshAfterGap).toEqual([contactKeys.all]);
  });
});
