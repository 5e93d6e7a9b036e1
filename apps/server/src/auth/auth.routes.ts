import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';
import { z } from 'zod';
import { LANG_COOKIE, SUPPORTED_LANGUAGES, safeRedirectPath } from '@mailroom/protocol';
import { ensureAccount, getUserInfo, setPassportLevel, type Principal } from '../accounts/index.js';
import { cookieOptions } from '../http/index.js';
import { DomainError } from '../core/errors.js';
import type { OidcClient } from './oidc-client.js';
import type { EndProviderSession } from './dev-idp/dev-idp.js';
import { passwordAccessAccount, signInWithPassword } from '../addresses/index.js';
import { SESSION_COOKIE, revokeSession } from './sessions.js';
import { IS_LOGGED_COOKIE, startSession } from './session-start.js';
import { recordSignIns, signInClientOf } from './auth-log.js';
import { throttledSignIn, waitText } from './sign-in-throttle.js';

const FLOW_COOKIE = 'mr_oidc';
/** Where signing out ends: the login page, without the automatic sign-in. */
export const SIGNED_OUT_PATH = '/login?noredirect=true';

const flowSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  redirect: z.string(),
});

export const authRoutes: FastifyPluginAsyncZod<{
  oidc: OidcClient;
  /** The embedded provider's (dev-idp.ts): our sign-out ends its session too. Absent with an external provider. */
  endProviderSession?: EndProviderSession | undefined;
}> = async (app, { oidc, endProviderSession }) => {
  const { db, config } = app.deps;
  const rateLimit = { max: config.authRateLimit, timeWindow: '1 minute' };
  const flowCookie = cookieOptions(config, { path: '/auth/wm', maxAge: 600, signed: true });

  /** Issues a fresh session id at every sign-in (and ends the one the browser had). */
  const signIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    idToken: string | null = null,
  ) => startSession(app.deps, { request, reply }, principal, { idToken });

  /**
   * Ends our session, and the embedded provider's session of this browser when it is the provider; answers the
   * provider's ID token it was signed in with (null: none, or no session).
   */
  async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
    const token = request.cookies[SESSION_COOKIE];
    const ended = token ? await revokeSession({ ...app.deps, log: request.log }, token) : undefined;
    if (endProviderSession)
      await endProviderSession(request, reply).catch((err: unknown) =>
        request.log.error({ err }, "ending the provider's session failed"),
      );
    reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
    reply.clearCookie(IS_LOGGED_COOKIE, cookieOptions(config, { httpOnly: false }));
    return ended?.idToken ?? null;
  }

  app.route({
    ...apiRoute(app, 'signIn', {
      tags: ['auth'],
      summary: 'Start single sign-on; redirect is the path to return to',
    }),
    config: { rateLimit },
    handler: async (request, reply) => {
      const redirect = safeRedirectPath(request.query.redirect ?? request.cookies.redirect ?? '/mail');
      // The provider's pages in the app's language: its `lang`, else the language cookie (SPEC §9).
      const lang = [request.query.lang, request.cookies[LANG_COOKIE]]
        .map((value) => value?.toLowerCase())
        .find((value) => (SUPPORTED_LANGUAGES as readonly (string | undefined)[]).includes(value));
      const flow = await oidc.startLogin(request.query.prompt, lang);
      const value = JSON.stringify({
        state: flow.state,
        nonce: flow.nonce,
        codeVerifier: flow.codeVerifier,
        redirect,
      });
      reply.setCookie(FLOW_COOKIE, value, flowCookie);
      return reply.redirect(flow.url, 302);
    },
  });

  app.route({
    ...apiRoute(app, 'signInCallback', { tags: ['auth'], summary: 'Single sign-on callback', hide: true }),
    config: { rateLimit },
    handler: async (request, reply) => {
      const unsigned = request.unsignCookie(request.cookies[FLOW_COOKIE] ?? '');
      reply.clearCookie(FLOW_COOKIE, flowCookie);
      const flow =
        unsigned.valid && unsigned.value ? flowSchema.safeParse(JSON.parse(unsigned.value)) : undefined;
      try {
        if (!flow?.success) throw new DomainError('auth_error', 'Sign-in expired, please try again');
        const callbackUrl = new URL(request.url, config.publicUrl);
        const member = await oidc.finishLogin(callbackUrl, flow.data);
        const { account } = await ensureAccount(db, {
          ...member,
          mailDomain: config.mailDomain,
          undoSendSeconds: config.timeControls.undoSendDefault,
        });
        await setPassportLevel(db, account.id, member.passportLevel);
        await signIn(request, reply, { accountId: account.id, aliasEmail: null }, member.idToken);
        await recordSignIns(db, signInClientOf(request), [
          { accountId: account.id, method: 'sso', success: true, address: account.email },
        ]);
        reply.clearCookie('redirect', cookieOptions(config, { httpOnly: false }));
        return reply.redirect(safeRedirectPath(flow.data.redirect), 303);
      } catch (err) {
        const code = err instanceof DomainError ? err.code : 'auth_error';
        request.log.info({ err }, 'sign-in refused');
        return reply.redirect(`/login?noredirect=true&error=${encodeURIComponent(code)}`, 303);
      }
    },
  });

  app.route({
    ...apiRoute(app, 'logOut', { tags: ['auth'], summary: 'End the session' }),
    handler: async (request, reply) => {
      await endSession(request, reply);
      return { ok: true as const };
    },
  });

  // The web app's Log out: a navigation, which ends our session and then the provider's (the embedded one's at once,
  // in endSession; an external one's by RP-initiated logout through its end_session_endpoint, which comes back to
  // /login?noredirect=true), so the next sign-in asks for the password again. Only when the navigation started on our own pages (or was typed), so a cross-site link
  // or image cannot sign people out.
  app.route({
    ...apiRoute(app, 'logOutLink', { tags: ['auth'], hide: true }),
    handler: async (request, reply) => {
      const site = request.headers['sec-fetch-site'];
      if (site && site !== 'same-origin' && site !== 'none') return reply.redirect('/mail', 303);
      const idToken = await endSession(request, reply);
      // The embedded provider's session has ended with ours; an external one ends at its end_session_endpoint.
      if (endProviderSession) return reply.redirect(SIGNED_OUT_PATH, 303);
      return reply.redirect((await oidc.endSessionUrl(idToken)) ?? SIGNED_OUT_PATH, 303);
    },
  });

  app.route({
    ...apiRoute(app, 'rids', { tags: ['auth'], summary: 'The member ID of the session' }),
    handler: async (request) => {
      const info = await getUserInfo(db, request.requireAuth());
      return { rid: info.member_id };
    },
  });

  app.route({
    ...apiRoute(app, 'access', { tags: ['auth'], summary: 'The signed-in user' }),
    handler: async (request) => getUserInfo(db, request.requireAuth()),
  });

  app.route({
    ...apiRoute(app, 'passwordSignIn', {
      tags: ['auth'],
      summary: 'Sign in to an address that has password access',
    }),
    config: { rateLimit },
    handler: async (request, reply) => {
      const { email, password } = request.body;
      const client = signInClientOf(request);
      // A wrong or held-back password is written in the log of the account owning the address (unknown ones: nowhere).
      const recordFailure = async () => {
        const owner = await passwordAccessAccount(db, email);
        if (owner !== undefined)
          await recordSignIns(db, client, [
            { accountId: owner, method: 'password', success: false, address: email.trim().toLowerCase() },
          ]);
      };
      const attempt = await throttledSignIn(
        { ...app.deps, log: request.log },
        { request, reply },
        { kind: 'address', email },
        () =>
          signInWithPassword(db, email, password).catch((err: unknown) => {
            if (err instanceof DomainError && err.code === 'incorrect_login_or_password') return undefined;
            throw err;
          }),
      );
      if ('waitMs' in attempt) {
        await recordFailure();
        const wait = waitText(attempt.waitMs);
        reply.header('retry-after', String(wait.seconds));
        throw new DomainError(
          'too_many_requests',
          `Too many wrong passwords for this address, try again in ${wait.minutes} min`,
        );
      }
      if ('wrong' in attempt) {
        await recordFailure();
        throw new DomainError('incorrect_login_or_password');
      }
      const principal = attempt.ok;
      await signIn(request, reply, principal);
      await recordSignIns(db, client, [
        { accountId: principal.accountId, method: 'password', success: true, address: principal.aliasEmail },
      ]);
      return { user: await getUserInfo(db, principal) };
    },
  });
};
