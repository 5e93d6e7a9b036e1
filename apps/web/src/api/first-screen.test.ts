import { describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_ELEMENT_ID, type FirstScreenData } from '@mailroom/protocol';
import { api } from './client';
import { serverClock } from './server-clock';
import { firstScreenTexts, takeFirstScreenAnswer } from '../lib/first-screen';

// What the server writes into index.html for a signed-in browser (apps/server/src/web-app/first-screen.ts).
const list = '/api/v1/messages/folder/3?a_id=all&page=1&limit=30';
const written: FirstScreenData = {
  answers: { [list]: { body: { messages: ['first'] }, clock: 1_700_000_000_001 } },
  language: 'ru',
  texts: { mail: { inbox: 'Входящие' } },
};

function writeBlock() {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = FIRST_SCREEN_ELEMENT_ID;
  block.textContent = JSON.stringify(written);
  document.body.append(block);
}

describe('the first screen written into the page', () => {
  it('answers each GET of it once, with its clock, asks the server after that, and gives its text once', async () => {
    writeBlock();
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ messages: ['fresh'] }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const noted = vi.spyOn(serverClock, 'noteAnswer');
    try {
      const address = '/api/v1/messages/folder/3';
      const query = { a_id: 'all', page: 1, limit: 30 };
      expect(await api.get(address, { query })).toEqual({ messages: ['first'] });
      expect(fetchMock).not.toHaveBeenCalled();
      expect(noted).toHaveBeenCalledWith(1_700_000_000_001);
      expect(document.getElementById(FIRST_SCREEN_ELEMENT_ID)).toBeNull();
      // Another page is not in it, and the same page a second time is the server's to answer.
      await api.get(address, { query: { ...query, page: 2 } });
      expect(await api.get(address, { query })).toEqual({ messages: ['fresh'] });
      expect(fetchMock).toHaveBeenCalledTimes(2);
      // The text only for the language the server expected, and only once.
      expect(firstScreenTexts('en')).toBeUndefined();
      expect(firstScreenTexts('ru')).toEqual({ mail: { inbox: 'Входящие' } });
      expect(firstScreenTexts('ru')).toBeUndefined();
      expect(takeFirstScreenAnswer(list)).toBeUndefined();
    } finally {
      noted.mockRestore();
      vi.unstubAllGlobals();
    }
  });
});
