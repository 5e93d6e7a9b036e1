import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { applyMailEvent, liveHandlers, refreshMissed } from './live-updates';
import { folderKeys } from '../features/folders';
import { documentTitle, foldersLiveHandler } from '../features/folders/live';
import { dispatchLiveEvent } from '../api/live';
import { accountKeys } from '../features/account';
import { accountLiveHandler } from '../features/account/live';
import { listOrder, mailKeys } from '../features/mail';
import { mailLiveHandler } from '../features/mail/live';
import { testAccount } from '../test/fixtures';

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

describe('each feature owns the queries its events refresh', () => {
  it('an event reaches the query keys of the feature that owns them, through the handlers the app wires', async () => {
    const client = new QueryClient();
    const folderList = mailKeys.list({ kind: 'folder', id: 4, aliasId: 'all', page: 1, limit: 30 });
    const otherFolderList = mailKeys.list({ kind: 'folder', id: 5, aliasId: 'all', page: 1, limit: 30 });
    const labelList = mailKeys.list({ kind: 'label', id: 9, aliasId: 'all', page: 1, limit: 30 });
    const opened = mailKeys.mail(4, 1, false);
    for (const key of [
      folderList,
      otherFolderList,
      labelList,
      opened,
      folderKeys.folders,
      accountKeys.account,
    ])
      client.setQueryData(key, {});
    const invalid = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

    dispatchLiveEvent(liveHandlers, client, { event: 'new', folder_id: 4, uids: [1] });
    await Promise.resolve();
    expect(invalid(folderList)).toBe(true);
    expect(invalid(labelList)).toBe(true);
    expect(invalid(otherFolderList)).toBe(false);
    expect(invalid(opened)).toBe(false);
    expect(invalid(folderKeys.folders)).toBe(false);

    dispatchLiveEvent(liveHandlers, client, { event: 'updateMailboxList' });
    await Promise.resolve();
    expect(invalid(folderKeys.folders)).toBe(true);
    expect(invalid(accountKeys.account)).toBe(true);
  });

  it('each feature handler touches only its own keys', () => {
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    mailLiveHandler.onEvent({ event: 'updateMailbox', folder_id: 4, unseen: 2, total: 9 }, client);
    foldersLiveHandler.onEvent({ event: 'new', folder_id: 4, uids: [1] }, client);
    accountLiveHandler.onEvent({ event: 'store', folder_id: 4, uids: [1] }, client);
    expect(spy).not.toHaveBeenCalled();
    foldersLiveHandler.onEvent({ event: 'updateMailbox', folder_id: 4, unseen: 2, total: 9 }, client);
    expect(spy).toHaveBeenCalledWith({ queryKey: folderKeys.folders });
  });
});

describe('account changes made in another tab', () => {
  it('settings and profiles read the account again, labels the labels; nothing else moves', async () => {
    const client = new QueryClient();
    const list = mailKeys.list({ kind: 'folder', id: 4, aliasId: 'all', page: 1, limit: 30 });
    for (const key of [accountKeys.account, folderKeys.labels, folderKeys.folders, list])
      client.setQueryData(key, {});
    const invalid = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
    const state = () => [accountKeys.account, folderKeys.labels, folderKeys.folders, list].map(invalid);

    applyMailEvent(client, { event: 'updateAccount', part: 'contacts' });
    await Promise.resolve();
    expect(state()).toEqual([false, false, false, false]);
    applyMailEvent(client, { event: 'updateAccount', part: 'labels' });
    await Promise.resolve();
    expect(state()).toEqual([false, true, false, false]);
    applyMailEvent(client, { event: 'updateAccount', part: 'settings' });
    await Promise.resolve();
    expect(state()).toEqual([true, true, false, false]);
  });

  it("an alias created, paid or deleted (part 'aliases') reads the account again: the sidebar and compose's From", async () => {
    const client = new QueryClient();
    client.setQueryData(accountKeys.account, {});
    client.setQueryData(folderKeys.folders, {});
    applyMailEvent(client, { event: 'updateAccount', part: 'aliases' });
    await Promise.resolve();
    expect(client.getQueryState(accountKeys.account)?.isInvalidated).toBe(true);
    expect(client.getQueryState(folderKeys.folders)?.isInvalidated).toBe(false);
  });

  it('the settings that order a list are part of its key, so saving them reads the list again', () => {
    const base = { kind: 'folder' as const, id: 4, aliasId: 'all', page: 1, limit: 30 };
    const plain = mailKeys.list({ ...base, order: listOrder(testAccount().settings) });
    const threaded = mailKeys.list({
      ...base,
      order: listOrder(testAccount({ message_thread: true }).settings),
    });
    const unreadFirst = mailKeys.list({
      ...base,
      order: listOrder(testAccount({ unread_first: true }).settings),
    });
    expect(new Set([plain, threaded, unreadFirst].map((key) => JSON.stringify(key))).size).toBe(3);
  });
});
