import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Collector } from '@mailroom/protocol';
import { collectorsLiveHandler } from './live';
import { collectorKeys } from './queries';
import { stale } from '../../test/query-cache';

const base: Collector = {
  id: 1,
  email: 'ivan@mail.ru',
  login: 'ivan@mail.ru',
  folder_name: 'INBOX.import.ivan@mail\u2024ru',
  server: { host: 'imap.mail.ru', port: 993, security: 'tls' },
  enabled: true,
  apply_filters: false,
  state: 'importing',
  progress: { folders_done: 0, folders_total: 2, messages_done: 5, messages_total: 10, messages_skipped: 0 },
  last_error: null,
  last_error_at: null,
  last_sync_at: null,
  next_sync_at: null,
  created_at: '2026-11-24T09:00:00Z',
};

describe('collectors on the websocket', () => {
  it('a collector event replaces that collector in the list; an unknown one reads the list again', () => {
    const client = new QueryClient();
    client.setQueryData([...collectorKeys.list], [base]);
    const moved = { ...base, progress: { ...base.progress, messages_done: 8 } };
    collectorsLiveHandler.onEvent({ event: 'collector', collector: moved }, client);
    expect(client.getQueryData([...collectorKeys.list])).toEqual([moved]);
    expect(stale(client, collectorKeys.list)).toBe(false);
    collectorsLiveHandler.onEvent({ event: 'collector', collector: { ...base, id: 2 } }, client);
    expect(stale(client, collectorKeys.list)).toBe(true);
  });

  it("updateAccount 'collectors' reads every collector query again; the keys are queries.ts's", () => {
    const client = new QueryClient();
    client.setQueryData([...collectorKeys.list], []);
    client.setQueryData([...collectorKeys.found('a@b.test')], {});
    collectorsLiveHandler.onEvent({ event: 'updateAccount', part: 'collectors' }, client);
    expect(stale(client, collectorKeys.list)).toBe(true);
    expect(collectorsLiveHandler.refreshAfterGap).toEqual([collectorKeys.all]);
  });
});
