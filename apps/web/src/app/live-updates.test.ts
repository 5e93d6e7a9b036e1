import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { applyMailEvent, refreshMissed } from './live-updates';
import { documentTitle } from '../features/folders';

describe('events to queries', () => {
  it('refreshes the folder lists on new/store/move and the folders on updateMailbox', () => {
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    applyMailEvent(client, { event: 'new', folder_id: 4, uids: [1] });
    expect(spy).toHaveBeenCalledWith({ queryKey: ['messages', 'list', 'folder', 4] });
    applyMailEvent(client, { event: 'move', folder_id: 4, to_folder_id: 7, uids: [1] });
    expect(spy).toHaveBeenCalledWith({ queryKey: ['messages', 'list', 'folder', 7] });
    applyMailEvent(client, { event: 'updateMailbox', folder_id: 4, unseen: 2, total: 9 });
    expect(spy).toHaveBeenCalledWith({ queryKey: ['folders'] });
  });

  it('loads again what was loaded before the socket opened, as its events may have been missed', async () => {
    const client = new QueryClient();
    const before = ['messages', 'list', 'folder', 4, 'all', 1, 30, null];
    client.setQueryData(before, { messages: [], total: 0, all: 0 }, { updatedAt: 1_000 });
    client.setQueryData(['folders'], { folders: [] }, { updatedAt: 1_000 });
    client.setQueryData(['user', 'account'], {}, { updatedAt: 1_000 });
    const after = ['messages', 'list', 'folder', 5, 'all', 1, 30, null];
    client.setQueryData(after, { messages: [], total: 0, all: 0 }, { updatedAt: 3_000 });
    client.setQueryData(['messages', 'mail', 4, 1, false], {}, { updatedAt: 1_000 });
    refreshMissed(client, 2_000);
    await Promise.resolve();
    const invalid = (key: unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(invalid(before)).toBe(true);
    expect(invalid(['folders'])).toBe(true);
    expect(invalid(['user', 'account'])).toBe(true);
    expect(invalid(after)).toBe(false);
    // An opened message does not change with the events.
    expect(invalid(['messages', 'mail', 4, 1, false])).toBe(false);
  });

  it('shows the Inbox unread count in the title', () => {
    expect(documentTitle('Mailroom', 3)).toBe('(3) Mailroom');
    expect(documentTitle('Mailroom', 0)).toBe('Mailroom');
  });
});
