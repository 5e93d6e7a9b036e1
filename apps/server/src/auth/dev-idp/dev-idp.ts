import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../core/db/index.js';
import { DomainError } from '../../core/errors.js';
import { createIdpUser, findIdpUser, verifyIdpUser } from './idp-users.js';
import { idpStore } from './idp-store.js';
import { errorPage, signInPage, signUpPage, signedUpPage } from './pages.js';
import { rememberBrowser, throttledSignIn, waitText } from '../sign-in-throttle.js';

export interface DevIdpOptions {
  db: Db;
  /** `${publicUrl}/oidc` */
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  cookieKeys: string[];
  signingKey: Record<string, unknown>;
  rateLimit: number;
  trustProxy: boolean;
}

export const DEV_IDP_PATH = '/oidc';

/**
 * The embedded development identity provider: a real OpenID Connect provider (oidc-provider)
 * mounted on our own server when no OIDC_ISSUER is configured, with sign-in and sign-up pages.
 * It issues the member ID both as `sub` and as the `member_id` claim.
 */
export function createDevIdp(opts: DevIdpOptions): Provider {
  const configuration: Configuration = {
    adapter: idpStore(opts.db),
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['name', 'member_id'] },
    // Put the profile claims in the ID token too, so the relying party needs no userinfo call.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/idp/interaction/${interaction.uid}` },
    cookies: { keys: opts.cookieKeys },
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
        claims: async () => ({ sub: user.memberId, member_id: user.memberId, name: user.name }),
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
      grant.addOIDCClaims(['member_id', 'name']);
      await grant.save();
      return grant;
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = errorPage(String(out.error_description ?? out.error ?? 'error'));
    },
  };
  const provider = new Provider(opts.issuer, configuration);
  provider.proxy = opts.trustProxy;
  return provider;
}

/** Mounts the provider under /oidc and its interaction pages under /idp. */
export async function devIdpRoutes(app: FastifyInstance, opts: DevIdpOptions): Promise<void> {
  const provider = createDevIdp(opts);
  const handler = provider.callback();
  const { db } = opts;

  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave the stream unread.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const forward = (request: FastifyRequest, reply: FastifyReply) => {
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
    const html = (reply: FastifyReply, body: string, status = 200) =>
      reply
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(body);

    // Each handler loads the interaction first: an unknown or expired uid gets an error page.
    const details = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await provider.interactionDetails(request.raw, reply.raw);
      } catch {
        html(reply, errorPage('This sign-in link has expired. Go back to Mailroom and sign in again.'), 400);
        return undefined;
      }
    };
    const finishLogin = async (request: FastifyRequest, reply: FastifyReply, memberId: string) => {
      const url = await provider.interactionResult(
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
        const interaction = await details(request, reply);
        if (!interaction) return reply;
        return html(reply, signInPage(interaction.uid));
      },
    );

    scope.post<{ Params: { uid: string }; Body: { memberId?: string; password?: string } }>(
      '/idp/interaction/:uid/login',
      { config: { rateLimit }, schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction) return reply;
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
          const error = `Too many wrong passwords for this member ID. Try again in ${wait.minutes} min.`;
          return html(reply, signInPage(interaction.uid, { error, memberId }), 429);
        }
        if ('wrong' in attempt)
          return html(
            reply,
            signInPage(interaction.uid, { error: 'Wrong member ID or password', memberId }),
            401,
          );
        return reply.redirect(await finishLogin(request, reply, attempt.ok.memberId), 303);
      },
    );

    scope.get<{ Params: { uid: string } }>(
      '/idp/interaction/:uid/signup',
      { schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction) return reply;
        return html(reply, signUpPage(interaction.uid));
      },
    );

    scope.post<{ Params: { uid: string }; Body: { name?: string; password?: string } }>(
      '/idp/interaction/:uid/signup',
      { config: { rateLimit }, schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction) return reply;
        const name = String(request.body?.name ?? '')
          .trim()
          .slice(0, 100);
        const password = String(request.body?.password ?? '');
        if (!name) return html(reply, signUpPage(interaction.uid, { error: 'Enter your name', name }), 400);
        if (password.length < 6) {
          return html(
            reply,
            signUpPage(interaction.uid, { error: 'Use at least 6 characters for the password', name }),
            400,
          );
        }
        try {
          const user = await createIdpUser(db, { name, password });
          // The browser that made the member ID is its owner's: guessing elsewhere never holds it back.
          rememberBrowser(app.deps.config, { request, reply }, { kind: 'member', memberId: user.memberId });
          return html(reply, signedUpPage(user.memberId, await finishLogin(request, reply, user.memberId)));
        } catch (err) {
          if (err instanceof DomainError)
            return html(reply, signUpPage(interaction.uid, { error: err.message, name }), 400);
          throw err;
        }
      },
    );
  });
}
