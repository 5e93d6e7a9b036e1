import { describe, expect, it } from 'vitest';
import { settingsLiveHandler } from './live';
import { securityKeys } from './security-queries';
import { clientWith, stale } from '../../test/query-cache';

describe('the security screens on the websocket', () => {
  const security = [securityKeys.settings, securityKeys.authLog(2, 20), securityKeys.baList];
  const support = [securityKeys.supportRequests, securityKeys.supportDiagnostics];

  it('a security change elsewhere reads the settings, the sign-in log and the bank accounts again', () => {
    const client = clientWith([...security, ...support]);
    settingsLiveHandler.onEvent({ event: 'updateAccount', part: 'security' }, client);
    for (const key of security) expect(stale(client, key)).toBe(true);
    for (const key of support) expect(stale(client, key)).toBe(false);
  });

  it('a support request sent elsewhere reads the history again', () => {
    const client = clientWith([...security, ...support]);
    settingsLiveHandler.onEvent({ event: 'updateAccount', part: 'support' }, client);
    expect(stale(client, securityKeys.supportRequests)).toBe(true);
    for (const key of security) expect(stale(client, key)).toBe(false);
  });

  it('other parts and mail events leave them alone', () => {
    const client = clientWith([...security, ...support]);
    settingsLiveHandler.onEvent({ event: 'updateAccount', part: 'settings' }, client);
    settingsLiveHandler.onEvent({ event: 'updateAccount', part: 'shared' }, client);
    settingsLiveHandler.onEvent({ event: 'updateMailboxList' }, client);
    for (const key of [...security, ...support]) expect(stale(client, key)).toBe(false);
  });

  it('refreshes after a gap exactly the prefixes security-queries.ts uses', () => {
    expect(settingsLiveHandler.refreshAfterGap).toEqual([securityKeys.all, securityKeys.supportAll]);
  });
});
