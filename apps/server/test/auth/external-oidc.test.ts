import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { Browser, cleanup, createTestApp } from '../_util.js';
import type { Db } from '../../src/core/db/index.js';
import { apiRequest } from '../_client.js';

/**
 * A separate OpenID Connect provider on loopback stands in for the payments provider's SSO:
 * Mailroom reaches it over the network, exactly as it would a real one. Its accounts carry
 * whatever member_id claim the test asks for.
 */
async function startProvider(
  memberIdFor: (login: string) => unknown,
  opts: { endSession?: boolean; kycLevelFor?: (login: string) => unknown } = {},
) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'mailroom',
        client_secret: 'external-secret',
        redirect_uris: ['http://mailroom.localhost/auth/wm/callback'],
        post_logout_redirect_uris: ['http://mailroom.localhost/login?noredirect=true'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['name', 'member_id', 'kyc_level'] },
    features: { rpInitiatedLogout: { enabled: opts.endSession ?? true } },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          name: `User ${sub}`,
          member_id: memberIdFor(sub),
          ...(opts.kycLevelFor ? { kyc_level: opts.kycLevelFor(sub) } : {}),
        }),
      };
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid profile');
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  cleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return issuer;
}

/** Walks the flow: Mailroom (inject) → provider (real HTTP, its own cookie jar) → Mailroom callback. */
async function signInThrough(
  issuer: string,
  login: string,
  opts: { env?: Record<string, string>; db?: Db } = {},
) {
  const { app, db } = await createTestApp({
    ...(opts.db ? { db: opts.db } : {}),
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_SECRET: 'external-secret',
      OIDC_CLIENT_ID: 'mailroom',
      ...opts.env,
    },
  });
  const mailroom = new Browser(app);
  const jar = new Map<string, string>();
  const providerFetch = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair!.split('=');
      jar.set(k!, v ?? '');
    }
    return response;
  };

  let location = String(
    (await apiRequest(mailroom, 'signIn', { query: { redirect: '/mail/folder/all/1/1' } })).headers.location,
  );
  expect(location.startsWith(issuer)).toBe(true);
  for (let i = 0; i < 10 && location.startsWith(issuer); i++) {
    let response = await providerFetch(location);
    if (response.status === 200) {
      // oidc-provider's development login form
      const page = await response.text();
      const action = /action="([^"]+)"/.exec(page)![1]!;
      response = await providerFetch(new URL(action, issuer).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      });
    }
    location = new URL(response.headers.get('location')!, location).href;
  }
  const callback = await mailroom.get(location);
  return { mailroom, callback, providerFetch, db };
}

describe('single sign-on with an external OpenID Connect provider', () => {
  it('a member with a 12-digit member_id claim gets a mailbox and lands on the saved path', async () => {
    const issuer = await startProvider((login) => login);
    const { mailroom, callback } = await signInThrough(issuer, '555000111222');
    expect(callback.headers.location).toBe('/mail/folder/all/1/1');
    expect((await apiRequest(mailroom, 'access')).json()).toMatchObject({
      email: '555000111222@mailroom.test',
      member_id: '555000111222',
      name: 'User 555000111222',
    });
  });

  it('the passport level comes from the claim OIDC_PASSPORT_LEVEL_CLAIM names, stored again at each sign-in', async () => {
    let level: unknown = 'verified';
    const issuer = await startProvider((login) => login, { kycLevelFor: () => level });
    const env = { OIDC_PASSPORT_LEVEL_CLAIM: 'kyc_level' };
    const levelOf = async (db: Db) =>
      (
        await db
          .selectFrom('accounts')
          .select('passport_level')
          .where('member_id', '=', '555000333444')
          .executeTakeFirstOrThrow()
      ).passport_level;
    const first = await signInThrough(issuer, '555000333444', { env });
    expect(await levelOf(first.db)).toBe('verified');
    const made = await apiRequest(first.mailroom, 'createAlias', { body: { name: 'kycdesk' } });
    expect(made.statusCode).toBe(200);
    // The provider stops vouching (an unknown value): the next sign-in takes the right away.
    level = 'gold';
    const second = await signInThrough(issuer, '555000333444', { env, db: first.db });
    expect(await levelOf(first.db)).toBe('none');
    const refused = await apiRequest(second.mailroom, 'createPaidAlias', { body: { name: 'kycpaid' } });
    expect(refused.json().error.meta.i8s).toBe('passport_level_required');
  });

  for (const claim of ['12345', 'abcdefghijkl', 123456789012, null]) {
    it(`a member_id claim of ${JSON.stringify(claim)} is refused with invalid_member_id`, async () => {
      const issuer = await startProvider(() => claim);
      const { mailroom, callback } = await signInThrough(issuer, 'someone');
      expect(callback.headers.location).toBe('/login?noredirect=true&error=invalid_member_id');
      expect(mailroom.cookies.has('mr_sid')).toBe(false);
    });
  }

  it('logging out sends the browser to the provider end_session_endpoint, which ends its session and comes back', async () => {
    const issuer = await startProvider((login) => login);
    const { mailroom, providerFetch } = await signInThrough(issuer, '555000111333');
    const out = await apiRequest(mailroom, 'logOutLink');
    expect(out.statusCode).toBe(303);
    const end = new URL(String(out.headers.location));
    expect(end.origin + end.pathname).toBe(`${issuer}/session/end`);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(
      'http://mailroom.localhost/login?noredirect=true',
    );
    expect((await apiRequest(mailroom, 'access')).statusCode).toBe(401);

    // The provider asks (its own page), the person confirms, and it sends them back to our login page.
    const question = await providerFetch(end.href);
    const page = await question.text();
    const action = /action="([^"]+)"/.exec(page)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
    const confirmed = await providerFetch(new URL(action, issuer).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(confirmed.headers.get('location')).toBe('http://mailroom.localhost/login?noredirect=true');
  });

  it('with a provider that offers no end_session_endpoint, logging out ends only our session', async () => {
    const issuer = await startProvider((login) => login, { endSession: false });
    const { mailroom } = await signInThrough(issuer, '555000111444');
    const out = await apiRequest(mailroom, 'logOutLink');
    expect(out.headers.location).toBe('/login?noredirect=true');
    expect((await apiRequest(mailroom, 'access')).statusCode).toBe(401);
  });
});
