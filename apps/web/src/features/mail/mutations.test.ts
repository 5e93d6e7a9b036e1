import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { MailListResponse } from '@mailroom/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markMessages } from './mutations';
import { mailKeys } from './queries';

afterEach(() => vi.unstubAllGlobals());

const listKey = mailKeys.listsOf('folder', 1);
const page = (subjects: string[]): MailListResponse =>
  ({
    messages: subjects.map((subject) => ({ subject })),
    total: subjects.length,
    all: subjects.length,
  }) as never;

describe('a flag changed at once', () => {
  it('asks again for a list whose read it cut short, so an undone move still shows its message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ moved: [] }), { status: 200 })),
    );
    const client = new QueryClient();
    // The list on screen as it was, then a read of it under way (the undo's refetch) when the reader marks a
    // message seen.
    client.setQueryData(listKey, page(['Move me']));
    let reads = 0;
    const read = () => {
      reads += 1;
      return reads === 1
        ? new Promise<MailListResponse>(() => {}) // never answers: the mark cancels it
        : Promise.resolve(page(['Keep me flagged', 'Move me']));
    };
    const onScreen = new QueryObserver(client, { queryKey: listKey, queryFn: read });
    const unsubscribe = onScreen.subscribe(() => {});
    expect(onScreen.getCurrentResult().fetchStatus).toBe('fetching');

    await markMessages(client, { flag: 'seen', messages: [{ folder_id: 1, uid: 2 }] });

    await vi.waitFor(() => expect(client.getQueryData<MailListResponse>(listKey)?.messages.length).toBe(2));
    expect(reads).toBe(2);
    unsubscribe();
  });

  it('leaves a list alone that nobody was reading', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ moved: [] }), { status: 200 })),
    );
    const client = new QueryClient();
    const read = vi.fn(async () => page(['Move me']));
    await client.fetchQuery({ queryKey: listKey, queryFn: read });
    await markMessages(client, { flag: 'seen', messages: [{ folder_id: 1, uid: 2 }] });
    expect(read).toHaveBeenCalledTimes(1);
  });
});
