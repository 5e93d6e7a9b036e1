import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { mailLiveHandler, markedSeenByOpening } from './live';
import { mailKeys } from './queries';

function watched() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
  const listRefreshed = () =>
    invalidate.mock.calls.some(
      ([filters]) => JSON.stringify(filters?.queryKey) === JSON.stringify(mailKeys.listsOf('folder', 11)),
    );
  return { client, invalidate, listRefreshed };
}

describe('the list under the reader with unread first', () => {
  it('opening an unread message does not ask the list again, so the message stays where it was', () => {
    const { client, listRefreshed } = watched();
    markedSeenByOpening({ folder_id: 11, uid: 5 });
    mailLiveHandler.onEvent({ event: 'store', folder_id: 11, uids: [5] }, client);
    expect(listRefreshed()).toBe(false);
  });

  it('any other change of flags still refreshes the list, and so does the same message changed again', () => {
    const { client, listRefreshed, invalidate } = watched();
    markedSeenByOpening({ folder_id: 11, uid: 6 });
    mailLiveHandler.onEvent({ event: 'store', folder_id: 11, uids: [6, 7] }, client);
    expect(listRefreshed()).toBe(true);
    invalidate.mockClear();
    markedSeenByOpening({ folder_id: 11, uid: 8 });
    mailLiveHandler.onEvent({ event: 'store', folder_id: 11, uids: [8] }, client);
    expect(listRefreshed()).toBe(false);
    mailLiveHandler.onEvent({ event: 'store', folder_id: 11, uids: [8] }, client);
    expect(listRefreshed()).toBe(true);
  });
});
