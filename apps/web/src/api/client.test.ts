import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './client';

function respond(status: number, body: unknown) {
  return vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));
}

afterEach(() => vi.unstubAllGlobals());

// The transport under call() takes any path: these tests give it paths by hand on purpose, as its callers would.

describe('api client', () => {
  it('sends the CSRF header and JSON body on state-changing requests only', async () => {
    const fetchMock = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/api/v1/user/settings', { per_page: 50 });
    await api.get('/api/v1/folders');
    const [[, post], [, get]] = fetchMock.mock.calls as unknown as [
      [string, RequestInit],
      [string, RequestInit],
    ];
    expect(post.headers).toMatchObject({ 'X-Mailroom-Csrf': '1', 'Content-Type': 'application/json' });
    expect(post.body).toBe('{"per_page":50}');
    expect(post.credentials).toBe('same-origin');
    expect(get.headers).not.toHaveProperty('X-Mailroom-Csrf');
  });

  it('sends a file as the body itself, as bytes, not as JSON', async () => {
    const fetchMock = respond(200, { added: 1 });
    vi.stubGlobal('fetch', fetchMock);
    const file = new File(['BEGIN:VCARD'], 'people.vcf', { type: 'text/vcard' });
    await api.post('/api/v1/contacts/import', file);
    const [[, post]] = fetchMock.mock.calls as unknown as [[string, RequestInit]];
    expect(post.headers).toMatchObject({
      'X-Mailroom-Csrf': '1',
      'Content-Type': 'application/octet-stream',
    });
    expect(post.body).toBe(file);
  });

  it('turns the error body into an ApiError with the status and catalogue code', async () => {
    vi.stubGlobal(
      'fetch',
      respond(409, { error: { message: 'exists', meta: { code: 409, i8s: 'folder_already_exist' } } }),
    );
    const error = await api.post('/api/v1/folders', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'folder_already_exist', message: 'exists' });
  });

  it('keeps the HTTP status when the body is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>too big</html>', { status: 413 })),
    );
    const error = await api.post('/api/v1/upload', {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 413, code: null });
  });
});
