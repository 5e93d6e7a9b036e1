import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_ELEMENT_ID, type FirstScreenData } from '@mailroom/protocol';

afterEach(() => vi.unstubAllGlobals());

// What the server writes into index.html for a signed-in browser (apps/server/src/web-app/first-screen.ts).
const written: FirstScreenData = {
  answers: {
    '/api/v1/folders': { body: { folders: [] }, clock: 1_700_000_000_000 },
    '/api/v1/messages/folder/3?a_id=all&page=1&limit=30': {
      body: { messages: ['first'] },
      clock: 1_700_000_000_001,
    },
  },
  language: 'ru',
  texts: { mail: { inbox: 'Входящие' } },
};
const block = document.createElement('script');
block.type = 'application/json';
block.id = FIRST_SCREEN_ELEMENT_ID;
block.textContent = JSON.stringify(written);
document.body.append(block);

// The test set-up has started the app's text already (which read the page, without a block): read it afresh.
vi.resetModules();
const { api } = await import('./client');
const { serverClock } = await import('./server-clock');
const { firstScreenTexts } = await import('../lib/first-screen');

describe('the first screen written into the page', () => {
  it('answers each GET of it once, with its clock, and asks the server after that', async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ messages: ['fresh'] }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const noted = vi.spyOn(serverClock, 'noteAnswer');
    const address = '/api/v1/messages/folder/3';
    const query = { a_id: 'all', page: 1, limit: 30 };
    expect(await api.get(address, { query })).toEqual({ messages: ['first'] });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(noted).toHaveBeenCalledWith(1_700_000_000_001);
    // Another page is not in it, and the same page a second time is the server's to answer.
    await api.get(address, { query: { ...query, page: 2 } });
    expect(await api.get(address, { query })).toEqual({ messages: ['fresh'] });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    // Only GETs: a write never gets a written answer.
    await api.post('/api/v1/folders', {});
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(document.getElementById(FIRST_SCREEN_ELEMENT_ID)).toBeNull();
  });

  it('gives the interface text only for the language the server expected', () => {
    expect(firstScreenTexts('en')).toBeUndefined();
    expect(firstScreenTexts('ru')).toEqual({ mail: { inbox: 'Входящие' } });
  });
});
