import { describe, expect, it } from 'vitest';
import { apiRoutes, type ApiRouteName } from '@mailroom/protocol';
import { Browser, createTestApp, signUpAndSignIn } from '../_util.js';
import { apiRequest, apiPath, OPENAPI_PATH } from '../_client.js';

const { app } = await createTestApp();
const { browser: signedIn } = await signUpAndSignIn(app, 'Ann Lee');

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Operation {
  method: Method;
  path: string;
  hasBody: boolean;
}

/** Every documented operation; routes added later are covered without touching this test. */
async function operations(): Promise<Operation[]> {
  const doc = (await new Browser(app).get(OPENAPI_PATH)).json() as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase() as Method,
      path: path.replace(/\{[^}]+\}/g, '1'),
      hasBody: Boolean(op.requestBody),
    })),
  );
}

// Logging out without a session is harmless and answers ok, so a stale tab can always log out.
// Recipients of an encrypted message may have no account: decrypt works without a session.
/** A route of the table as the document's operations are named here: method and path, each :param a 1. */
const operationOf = (name: ApiRouteName) =>
  `${apiRoutes[name].method} ${apiRoutes[name].path.replace(/:\w+/g, '1')}`;
const publicOperations = new Set(
  (['signIn', 'passwordSignIn', 'logOut', 'decryptParams', 'decrypt', 'walletWebhook'] as const).map(
    operationOf,
  ),
);
// The wallet's webhook is admitted by its signature, checked before the body: unsigned, any body is 403
// (wallet-http.test.ts holds it, and a signed bad body's 400).
const signedOperations = new Set([operationOf('walletWebhook')]);
const ops = await operations();

describe('the API contract', () => {
  it('the OpenAPI document lists the foundation routes', () => {
    const names = ops.map((o) => `${o.method} ${o.path}`);
    for (const route of [
      'user',
      'account',
      'settings',
      'changeSettings',
      'folders',
      'rids',
      'access',
      'passwordSignIn',
      'logOut',
    ] as const) {
      expect(names).toContain(operationOf(route));
    }
  });

  for (const op of ops.filter((o) => !publicOperations.has(`${o.method} ${o.path}`))) {
    it(`${op.method} ${op.path} without a session is 401 with the error body`, async () => {
      const response = await new Browser(app).request(op.method, op.path, op.hasBody ? { json: {} } : {});
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { message: expect.any(String), meta: { code: 401, i8s: expect.any(String) } },
      });
    });
  }

  for (const op of ops.filter((o) => o.hasBody && !signedOperations.has(`${o.method} ${o.path}`))) {
    it(`${op.method} ${op.path} with a bad body is 400 invalid_request_params`, async () => {
      for (const payload of [
        '{not json',
        JSON.stringify({ per_page: 'many', email: 7, password: [] }),
        '[]',
      ]) {
        const bad = await app.inject({
          method: op.method,
          url: op.path,
          headers: {
            host: 'mailroom.localhost',
            origin: 'http://mailroom.localhost',
            'x-mailroom-csrf': '1',
            'content-type': 'application/json',
            cookie: [...signedIn.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          },
          payload,
        });
        expect(bad.statusCode, payload).toBe(400);
        expect(bad.json()).toEqual({
          error: { message: expect.any(String), meta: { code: 400, i8s: 'invalid_request_params' } },
        });
        expect(bad.body).not.toMatch(/at .*\.(ts|js):\d+/);
      }
    });
  }

  it('an unknown API path is a 404 with the error body, not the web app', async () => {
    // Typed by hand on purpose: a path under /api/v1 that no route of the table has.
    const response = await signedIn.get('/api/v1/no-such-thing');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.meta).toEqual({ code: 404, i8s: 'not_found' });
  });
});

describe('integers past the columns they reach', () => {
  // A UID and a filter version are PostgreSQL integers (int4): 2^31 once reached the database and answered 500.
  const tooBig = 2 ** 31;
  it.each([
    [
      apiPath('markMessages'),
      (inbox: number) => ({ flag: 'seen', folder_messages: [{ folder_id: inbox, message_uids: [tooBig] }] }),
    ],
    [
      apiPath('deleteMessages'),
      (inbox: number) => ({ folder_messages: [{ folder_id: inbox, message_uids: [tooBig] }] }),
    ],
    [apiPath('copyAttachments'), (inbox: number) => ({ folder_id: inbox, uid: tooBig })],
    [apiPath('decryptMessage'), (inbox: number) => ({ folder_id: inbox, uid: tooBig })],
    [apiPath('testFilter'), (inbox: number) => ({ folder_id: inbox, uid: tooBig, script: 'keep;' })],
    [apiPath('filters'), () => ({ version: tooBig, script: 'keep;' })],
  ])('POST %s with 2^31 is 400 invalid_request_params, not 500', async (path, body) => {
    const folders = (await apiRequest(signedIn, 'folders')).json() as {
      folders: { id: number; type?: string; name: string }[];
    };
    const inbox = folders.folders[0]!.id;
    const response = await signedIn.request('POST', path, { json: body(inbox) });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.meta).toEqual({ code: 400, i8s: 'invalid_request_params' });
  });
});

describe('cross-site request protection', () => {
  it('a state-changing request without the CSRF header is refused', async () => {
    const response = await apiRequest(signedIn, 'changeSettings', { body: { per_page: 50 }, csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.meta.i8s).toBe('csrf_failed');
  });

  it('a state-changing request from another origin is refused even with the header', async () => {
    const response = await apiRequest(signedIn, 'changeSettings', {
      body: { per_page: 50 },
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('a same-origin request with the header goes through', async () => {
    const response = await apiRequest(signedIn, 'changeSettings', { body: { per_page: 50 } });
    expect(response.statusCode).toBe(200);
    expect(response.json().settings.per_page).toBe(50);
  });

  it('a cross-site logout link does not log the user out', async () => {
    const response = await apiRequest(signedIn, 'logOutLink', {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.headers.location).toBe('/mail');
    expect((await apiRequest(signedIn, 'access')).statusCode).toBe(200);
  });
});
