import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { passportLevelValues, type PassportLevel } from '@mailroom/protocol';
import type { Db } from '../../core/db/index.js';
import { DomainError } from '../../core/errors.js';
import { sendHtml } from '../../http/index.js';
import { createIdpUser, findIdpUser, verifyIdpUser } from './idp-users.js';
import { idpStore } from './idp-store.js';
import {
  IDP_SCRIPT_PATH,
  errorPage,
  idpScript,
  signInPage,
  signOutPage,
  signUpPage,
  signedOutPage,
  signedUpPage,
} from './pages.js';
import { idpTexts, pickLanguage } from './texts.js';
import { rememberBrowser, throttledSignIn, waitText } from '../sign-in-throttle.js';

export interface DevIdpOptions {
  db: Db;
  /** `${publicUrl}/oidc` */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claim the member's passport level is issued as (OIDC_PASSPORT_LEVEL_CLAIM). */
  passportLevelClaim: string;
  redirectUri: string;
  /** Where signing out at the provider comes back to (the app's login page). */
  postLogoutRedirectUri: string;
  /**
   * The app may be framed by a host page of another site (FRAME_ANCESTORS): the provider's cookies must then work
   * in a third-party frame, as the app's own do (SameSite=None; Secure; Partitioned).
   */
  embedded: boolean;
  cookieKeys: string[];
  signingKey: Record<string, unknown>;
  rateLimit: number;
  trustProxy: boolean;
}

export const DEV_IDP_PATH = '/oidc';

/** The passport level the sign-up page offers first (and a form without the field gets). */
const SIGN_UP_PASSPORT_LEVEL: PassportLevel = 'formal';

/**
 * The embedded development identity provider: a real OpenID Connect provider (oidc-provider)
 * mounted on our own server when no OIDC_ISSUER is configured, with sign-in and sign-up pages.
 * It issues the member ID both as `sub` and as the `member_id` claim, and the passport level picked at sign-up as
 * the claim OIDC_PASSPORT_LEVEL_CLAIM names.
 */
export async function createDevIdp(opts: DevIdpOptions): Promise<Provider> {
  // The cookies of the sign-in flow: in a cross-site frame only SameSite=None; Secure; Partitioned ones are kept.
  const cookieAttributes = opts.embedded
    ? ({ httpOnly: true, sameSite: 'none', secure: true, partitioned: true } as const)
    : ({ httpOnly: true, sameSite: 'lax' } as const);
  const languageOf = (ctx: KoaContextWithOIDC) =>
    pickLanguage({
      query: typeof ctx.query.lang === 'string' ? ctx.query.lang : null,
      cookie: ctx.cookies.get('lang') ?? null,
      uiLocales: typeof ctx.oidc?.params?.ui_locales === 'string' ? ctx.oidc.params.ui_locales : null,
      acceptLanguage: ctx.get('accept-language'),
    });
  const configuration: Configuration = {
    adapter: idpStore(opts.db),
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        post_logout_redirect_uris: [opts.postLogoutRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['name', 'member_id', opts.passportLevelClaim] },
    // Put the profile claims in the ID token too, so the relying party needs no userinfo call.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      // RP-initiated logout: the app's Log out ends the provider's session too (auth.routes.ts logOutLink).
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          // A valid id_token_hint of our client: the app itself sent the browser here at Log out.
          const confirmed = Boolean(ctx.oidc.entities.IdTokenHint && ctx.oidc.client);
          ctx.type = 'html';
          ctx.body = signOutPage(form, { lang: languageOf(ctx), confirmed });
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = signedOutPage({ lang: languageOf(ctx) });
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/idp/interaction/${interaction.uid}` },
    cookies: { keys: opts.cookieKeys, long: cookieAttributes, short: cookieAttributes },
    ttl: {
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      AccessToken: 3600,
      IdToken: 3600,
      AuthorizationCode: 60,
    },
    jwks: { keys: [opts.signingKey as never] },
    async findAccount(_ctx, sub) {
      const user = await findIdpUser(opts.db, sub);
      if (!user) return undefined;
      return {
        accountId: user.memberId,
        claims: async () => ({
          sub: user.memberId,
          member_id: user.memberId,
          name: user.name,
          [opts.passportLevelClaim]: user.passportLevel,
        }),
      };
    },
    // Mailroom is the provider's own first-party client: no consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile');
      grant.addOIDCClaims(['member_id', 'name', opts.passportLevelClaim]);
      await grant.save();
      return grant;
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = errorPage(String(out.error_description ?? out.error ?? 'error'), { lang: languageOf(ctx) });
    },
  };
  // oidc-provider (~4 MB of heap with its Koa) is loaded when the provider is first asked for something: never by a
  // server signing in through an external provider, and by the embedded default at its first sign-in.
  const { default: OidcProvider } = await import('oidc-provider');
  const provider = new OidcProvider(opts.issuer, configuration);
  provider.proxy = opts.trustProxy;
  if (opts.embedded) {
    // The cookie library refuses Secure cookies unless the request counts as secure (TLS, or a trusted proxy's
    // X-Forwarded-Proto). Browsers keep them from http://localhost and loopback addresses too (potentially
    // trustworthy origins), and behind TLS they are right anyway: count every request as secure for cookies.
    provider.use(async (ctx, next) => {
      Object.defineProperty(ctx.request, 'secure', { value: true });
      await next();
    });
  }
  return provider;
}

/** A string field of a parsed query or form, if there is one. */
function formField(source: unknown, name: string): string | null {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : null;
}

/**
 * Ends the embedded provider's session of the browser making `request` (the session its signed `_session` cookie
 * names), so the next sign-in asks for the password again. The provider runs in this process: our sign-out ends it
 * directly, whichever way the member signed out (the Log out link, the API's logOut, "Log in with another member
 * ID"), with no redirect through its end_session endpoint that a closed tab or a blocked script could cut short.
 */
export type EndProviderSession = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Mounts the provider under /oidc and its interaction pages under /idp; answers how to end a browser's session. */
export async function devIdpRoutes(app: FastifyInstance, opts: DevIdpOptions): Promise<EndProviderSession> {
  let created: Promise<Provider> | undefined;
  const devIdp = () => (created ??= createDevIdp(opts));
  let handler: ReturnType<Provider['callback']> | undefined;
  const { db } = opts;
  const endProviderSession: EndProviderSession = async (request, reply) => {
    // The provider's own reading of its cookie (signed with its keys): a forged one names no session.
    const provider = await devIdp();
    const session = await provider.Session.get(provider.createContext(request.raw, reply.raw));
    if (session.accountId) await session.destroy();
  };

  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave the stream unread.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      handler ??= (await devIdp()).callback();
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(DEV_IDP_PATH.length) || '/';
      handler(raw, reply.raw);
    };
    scope.all(`${DEV_IDP_PATH}/*`, { schema: { hide: true } }, forward);
  });

  await app.register(async (scope) => {
    await scope.register(formbody);
    const rateLimit = { max: opts.rateLimit, timeWindow: '1 minute' };

    /** The page's language: its `lang` (query or form), the app's cookie, the sign-in's ui_locales, the browser. */
    const languageOf = (request: FastifyRequest, uiLocales?: unknown) =>
      pickLanguage({
        query: formField(request.body, 'lang') ?? formField(request.query, 'lang'),
        cookie: request.cookies.lang ?? null,
        uiLocales: typeof uiLocales === 'string' ? uiLocales : null,
        acceptLanguage: request.headers['accept-language'] ?? null,
      });

    // Each handler loads the interaction first: an unknown or expired uid gets an error page.
    const details = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const interaction = await (await devIdp()).interactionDetails(request.raw, reply.raw);
        return { interaction, lang: languageOf(request, interaction.params.ui_locales) };
      } catch {
        const lang = languageOf(request);
        sendHtml(reply, errorPage(idpTexts[lang].linkExpired, { lang }), 400);
        return undefined;
      }
    };

    scope.get(IDP_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(idpScript),
    );
    const finishLogin = async (request: FastifyRequest, reply: FastifyReply, memberId: string) => {
      const url = await (
        await devIdp()
      ).interactionResult(
        request.raw,
        reply.raw,
        { login: { accountId: memberId } },
        {
          mergeWithLastSubmission: false,
        },
      );
      return url;
    };

    scope.get<{ Params: { uid: string } }>(
      '/idp/interaction/:uid',
      { schema: { hide: true } },
      async (request, reply) => {
        const found = await details(request, reply);
        if (!found) return reply;
        return sendHtml(reply, signInPage(found.interaction.uid, { lang: found.lang }));
      },
    );

    scope.post<{ Params: { uid: string }; Body: { memberId?: string; password?: string } }>(
      '/idp/interaction/:uid/login',
      { config: { rateLimit }, schema: { hide: true } },
      async (request, reply) => {
        const found = await details(request, reply);
        if (!found) return reply;
        const { interaction, lang } = found;
        const memberId = String(request.body?.memberId ?? '').trim();
        const attempt = await throttledSignIn(
          { ...app.deps, log: request.log },
          { request, reply },
          { kind: 'member', memberId },
          () => verifyIdpUser(db, memberId, String(request.body?.password ?? '')),
        );
        if ('waitMs' in attempt) {
          const wait = waitText(attempt.waitMs);
          reply.header('retry-after', String(wait.seconds));
          const error = idpTexts[lang].tooManyWrong.replace('{minutes}', String(wait.minutes));
          return sendHtml(reply, signInPage(interaction.uid, { lang, error, memberId }), 429);
        }
        if ('wrong' in attempt)
          return sendHtml(
            reply,
            signInPage(interaction.uid, { lang, error: idpTexts[lang].wrongCredentials, memberId }),
            401,
          );
        return reply.redirect(await finishLogin(request, reply, attempt.ok.memberId), 303);
      },
    );

    scope.get<{ Params: { uid: string } }>(
      '/idp/interaction/:uid/signup',
      { schema: { hide: true } },
      async (request, reply) => {
        const found = await details(request, reply);
        if (!found) return reply;
        return sendHtml(reply, signUpPage(found.interaction.uid, { lang: found.lang }));
      },
    );

    scope.post<{
      Params: { uid: string };
      Body: { name?: string; password?: string; passportLevel?: string };
    }>(
      '/idp/interaction/:uid/signup',
      { config: { rateLimit }, schema: { hide: true } },
      async (request, reply) => {
        const found = await details(request, reply);
        if (!found) return reply;
        const { interaction, lang } = found;
        const t = idpTexts[lang];
        const name = String(request.body?.name ?? '')
          .trim()
          .slice(0, 100);
        const password = String(request.body?.password ?? '');
        // For trying the service out: the level a real provider would have checked (formal unless another is picked).
        const level = request.body?.passportLevel ?? SIGN_UP_PASSPORT_LEVEL;
        const passportLevel = (passportLevelValues as readonly string[]).includes(level)
          ? (level as PassportLevel)
          : undefined;
        const again = { lang, name, passportLevel: passportLevel ?? SIGN_UP_PASSPORT_LEVEL };
        if (!name) return sendHtml(reply, signUpPage(interaction.uid, { ...again, error: t.enterName }), 400);
        if (password.length < 6) {
          return sendHtml(reply, signUpPage(interaction.uid, { ...again, error: t.passwordTooShort }), 400);
        }
        if (!passportLevel) {
          return sendHtml(reply, signUpPage(interaction.uid, { ...again, error: t.pickPassportLevel }), 400);
        }
        try {
          const user = await createIdpUser(db, { name, password, passportLevel });
          // The browser that made the member ID is its owner's: guessing elsewhere never holds it back.
          rememberBrowser(app.deps.config, { request, reply }, { kind: 'member', memberId: user.memberId });
          const continueUrl = await finishLogin(request, reply, user.memberId);
          return sendHtml(reply, signedUpPage(user.memberId, continueUrl, { lang }));
        } catch (err) {
          if (err instanceof DomainError) {
            const error = err.code === 'name_not_indicated' ? t.enterName : t.signUpFailed;
            return sendHtml(reply, signUpPage(interaction.uid, { ...again, error }), 400);
          }
          throw err;
        }
      },
    );
  });
  return endProviderSession;
}
