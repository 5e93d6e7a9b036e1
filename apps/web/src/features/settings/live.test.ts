import { describe, expect, it } from 'vitest';
import { settingsLiveHandler } from './live';
import type { MailImport, MailImportsResponse } from '@mailroom/protocol';
import { securityKeys } from './security-queries';
import { importKeys } from './import-queries';
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

  it('refreshes after a gap exactly the prefixes security-queries.ts and import-queries.ts use', () => {
    expect(settingsLiveHandler.refreshAfterGap).toEqual([
      securityKeys.all,
      securityKeys.supportAll,
      importKeys.list,
    ]);
  });

  it("an import's progress replaces it in the list, and a new one comes first", () => {
    const client = clientWith([importKeys.list]);
    const item = (id: number, done: number): MailImport => ({
      id,
      state: 'running',
      format: 'mbox',
      file_name: `f${id}.mbox`,
      total: 10,
      done,
      stored: done,
      already_here: 0,
      skipped: 0,
      failed: 0,
      report: [],
      error: null,
      filters: false,
      created_at: '2026-11-29T10:00:00.000Z',
      updated_at: '2026-11-29T10:00:00.000Z',
    });
    client.setQueryData(importKeys.list, { imports: [item(1, 0)] });
    settingsLiveHandler.onEvent({ event: 'mailImport', import: item(1, 4) }, client);
    settingsLiveHandler.onEvent({ event: 'mailImport', import: item(2, 0) }, client);
    const list = client.getQueryData<MailImportsResponse>(importKeys.list);
    expect(list?.imports.map((one) => [one.id, one.done])).toEqual([
      [2, 0],
      [1, 4],
    ]);
  });
});
