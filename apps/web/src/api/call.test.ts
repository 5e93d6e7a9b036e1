import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, routeUrl, routes } from './client';

afterEach(() => vi.unstubAllGlobals());

// The addresses here are typed by hand on purpose: this file tests the code that builds them from the route table.

describe('routeUrl: addresses built from the protocol route table', () => {
  it('puts each path parameter in its segment, percent-encoded', () => {
    expect(routeUrl(routes.message, { params: { folder_id: 4, uid: 17 } })).toBe('/api/v1/messages/4/17');
    // A '/', '%', '?' or '#' in a value stays inside its own segment instead of changing the route.
    expect(routeUrl(routes.decryptParams, { params: { id: 'a/b%c?d#e f' } })).toBe(
      '/api/v1/decrypt/a%2Fb%25c%3Fd%23e%20f/params',
    );
  });

  it('appends the query in order, leaving out values that are not given', () => {
    expect(
      routeUrl(routes.folderMessages, {
        params: { folder_id: 3 },
        query: { a_id: 'all', page: 2, limit: undefined },
      }),
    ).toBe('/api/v1/messages/folder/3?a_id=all&page=2');
    expect(
      routeUrl(routes.message, { params: { folder_id: 1, uid: 2 }, query: { show_images: undefined } }),
    ).toBe('/api/v1/messages/1/2');
    expect(
      routeUrl(routes.signIn, { query: { redirect: '/mail/folder/all/1/1?x=1&y=é', prompt: 'login' } }),
    ).toBe('/auth/wm/login?redirect=%2Fmail%2Ffolder%2Fall%2F1%2F1%3Fx%3D1%26y%3D%C3%A9&prompt=login');
  });

  it('refuses to build an address with a parameter missing', () => {
    expect(() => routeUrl(routes.attachment, { params: {} })).toThrow(':id');
  });
});

describe('call', () => {
  it("sends the route's method and JSON body to its address and answers the parsed response", async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ ok: true, moved: [] }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const answer = await call(routes.markMessages, {
      body: { flag: 'seen', folder_messages: [{ folder_id: 4, message_uids: [1, 2] }] },
    });
    expect(answer).toEqual({ ok: true, moved: [] });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/messages/mark');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"flag":"seen","folder_messages":[{"folder_id":4,"message_uids":[1,2]}]}');
  });

  it('builds a GET from params and query, with no body', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ messages: [], total: 0, all: 0 })));
    vi.stubGlobal('fetch', fetchMock);
    await call(routes.labelMessages, { params: { label_id: 9 }, query: { a_id: 5, page: 1 } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/messages/label/9?a_id=5&page=1');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });
});
