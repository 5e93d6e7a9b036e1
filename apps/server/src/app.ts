import pino from 'pino';
import Fastify, { type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { errorBody } from '@mailroom/protocol';
import type { Config } from './config.js';
import type { Db } from './core/db/index.js';
import type { Secrets } from './core/secrets.js';
import type { BlobReferences, BlobStore } from './core/blobs/index.js';
import { blobsOfMessages } from './mailbox/index.js';
import { blobsOfEncrypted } from './encrypted/index.js';
import type { EventBus, PublishLog } from './core/events/index.js';
import { liveUpdates } from './live/index.js';
import {
  ALIAS_INVOICE_PURPOSE,
  aliasInvoicePurpose,
  aliasRoutes,
  delegatedSessionRoutes,
  DOMAIN_EMAIL_INVOICE_PURPOSE,
  domainEmailInvoicePurpose,
  DOMAIN_INVOICE_PURPOSE,
  domainInvoicePurpose,
  domainEmailRoutes,
  domainRoutes,
  userRoutes,
} from './user/index.js';
import {
  authRoutes,
  DEV_IDP_PATH,
  devIdpRoutes,
  OidcClient,
  sessionPlugin,
  SIGNED_OUT_PATH,
} from './auth/index.js';
import { mailRoutes } from './mail/index.js';
import { blobsOfSending, sendingRoutes } from './sending/index.js';
import { encryptedRoutes } from './encrypted/index.js';
import { configureSievePool, filterRoutes } from './filters/index.js';
import { blobsOfImports, contactRoutes } from './contacts/index.js';
import { blobsOfMailImports, mailImportRoutes } from './imports/index.js';
import {
  InvoicePurposes,
  registerInvoicePurpose,
  sandboxWalletRoutes,
  walletRoutes,
  type WalletGateway,
} from './wallet/index.js';
import { syncPublicDomainRows } from './addresses/index.js';
import { impersonationRoutes, securityRoutes } from './security/index.js';
import { supportRoutes } from './support/index.js';
import { collectorRoutes } from './collectors/index.js';
import { spamRoutes } from './spam/index.js';
import {
  canonicalHostPlugin,
  checkRouteTable,
  clientErrorHandler,
  csrfPlugin,
  frameworkErrorHandler,
  healthPlugin,
  inProcessFetch,
  metricsPlugin,
  noNulPlugin,
  postgresRateLimitStore,
  securityHeadersPlugin,
  serverClockPlugin,
  toApiError,
} from './http/index.js';
import { registerWebApp } from './web-app/index.js';

export interface AppDeps {
  config: Config;
  db: Db;
  secrets: Secrets;
  blobs: BlobStore;
  events: EventBus;
  /** The provider's wallet (`openWalletGateway`: the embedded sandbox unless WALLET_API_URL is set). */
  wallet: WalletGateway;
  /** What paying an invoice does, per purpose (`appInvoicePurposes`). */
  invoicePurposes: InvoicePurposes;
}

/**
 * The purposes invoices are issued for, each with what settling it does (user/'s handlers — 'alias': activates or
 * fails the paid alias; 'domain_email': prepares or fails the address; 'domain': lets a paid domain be verified, or
 * fails it; each tells the owner's tabs through `events` once it has committed). Made once per process; the server,
 * its jobs and the CLI all settle invoices through it.
 */
export function appInvoicePurposes(
  events: EventBus,
  log: PublishLog = pino({ name: 'invoices' }),
): InvoicePurposes {
  const purposes = new InvoicePurposes();
  registerInvoicePurpose(purposes, ALIAS_INVOICE_PURPOSE, aliasInvoicePurpose({ events, log }));
  registerInvoicePurpose(purposes, DOMAIN_EMAIL_INVOICE_PURPOSE, domainEmailInvoicePurpose({ events, log }));
  registerInvoicePurpose(purposes, DOMAIN_INVOICE_PURPOSE, domainInvoicePurpose({ events, log }));
  return purposes;
}

/**
 * What the blob collector asks before removing blobs: each area that keeps blob hashes answers for its own tables
 * (messages — drafts and collected mail among them — and their old attachment blobs; compose uploads and the
 * outbox; encrypted messages; contacts files being imported), a hash found by one not asked of the next. `filter_sends` keeps hashes only as the
 * identity of bytes already answered, never to read them, so it holds no blob.
 */
export function appBlobReferences(db: Db): BlobReferences {
  const owners = [blobsOfMessages, blobsOfSending, blobsOfEncrypted, blobsOfImports, blobsOfMailImports];
  return async (hashes) => {
    const found = new Set<string>();
    let rest = hashes;
    for (const owner of owners) {
      if (rest.length === 0) break;
      for (const hash of await owner(db, rest)) found.add(hash);
      rest = rest.filter((h) => !found.has(h));
    }
    return found;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyContextConfig {
    /** Reachable without a session. */
    public?: boolean;
    /** Checks NUL characters itself, with an answer of its own (see http/no-nul.ts). */
    checksNul?: boolean;
    /** A server-to-server notice admitted by its signature (the wallet webhook): no CSRF header. */
    signedWebhook?: boolean;
  }
}

export async function buildApp(deps: AppDeps, options: { logger?: FastifyServerOptions['logger'] } = {}) {
  const { config } = deps;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Requests carry ids for log correlation; generated, never taken from the client.
    genReqId: () => crypto.randomUUID(),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('deps', deps);
  configureSievePool({ timeLimitMs: config.sieveTimeLimitMs });
  // PUBLIC_DOMAINS as rows of domains (kind public), so addresses on them point at a domain like any other.
  await syncPublicDomainRows(deps.db, config.domains.publicDomains);
  checkRouteTable(app, ['/api/v1', '/auth'], ['/api/v1/openapi.json']);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((err, request, reply) => {
    const { status, body } = toApiError(err);
    if (status >= 500) request.log.error({ err }, 'request failed');
    else
      request.log.info(
        { code: body.error.meta.i8s, err: err instanceof Error ? err.message : err },
        'request refused',
      );
    return reply.status(status).header('cache-control', 'no-store').send(body);
  });

  await app.register(cookie, { secret: deps.secrets.cookieSecret });
  await app.register(securityHeadersPlugin, { frameAncestors: config.frameAncestors });
  await app.register(canonicalHostPlugin, { publicUrl: config.publicUrl });
  await app.register(rateLimit, {
    global: false,
    // On PostgreSQL several processes may serve one deployment: they count in the database together.
    ...(config.databaseUrl ? { store: postgresRateLimitStore(deps.db) } : {}),
    errorResponseBuilder: (_req, ctx) => ({ ...errorBody('too_many_requests'), statusCode: ctx.statusCode }),
  });
  await app.register(metricsPlugin, { token: config.metrics.token });
  await app.register(serverClockPlugin);
  await app.register(noNulPlugin);
  await app.register(sessionPlugin);
  await app.register(csrfPlugin, { publicOrigin: new URL(config.publicUrl).origin });
  await app.register(liveUpdates);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Mailroom API', version: '1' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'mr_sid' } } },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });

  // /healthz/live, /healthz/ready and /healthz (readiness): http/health.ts.
  await app.register(healthPlugin, { db: deps.db, blobs: deps.blobs });

  const embeddedIdp = !config.oidc.issuer;
  const redirectUri = `${config.publicUrl}/auth/wm/callback`;
  const postLogoutRedirectUri = `${config.publicUrl}${SIGNED_OUT_PATH}`;
  const oidc = new OidcClient({
    issuer: config.oidc.issuer ?? `${config.publicUrl}${DEV_IDP_PATH}`,
    clientId: config.oidc.clientId,
    clientSecret: config.oidc.clientSecret ?? deps.secrets.idpClientSecret,
    redirectUri,
    postLogoutRedirectUri,
    memberIdClaim: config.oidc.memberIdClaim,
    passportLevelClaim: config.oidc.passportLevelClaim,
    scopes: config.oidc.scopes,
    ...(embeddedIdp ? { fetch: inProcessFetch(app, config.publicUrl) } : {}),
  });
  const endProviderSession = embeddedIdp
    ? await devIdpRoutes(app, {
        db: deps.db,
        issuer: `${config.publicUrl}${DEV_IDP_PATH}`,
        clientId: config.oidc.clientId,
        clientSecret: deps.secrets.idpClientSecret,
        passportLevelClaim: config.oidc.passportLevelClaim,
        redirectUri,
        postLogoutRedirectUri,
        embedded: config.frameAncestors.length > 0,
        cookieKeys: deps.secrets.idpCookieKeys,
        signingKey: deps.secrets.idpSigningKey,
        rateLimit: config.authRateLimit,
        trustProxy: config.trustProxy,
      })
    : undefined;

  await app.register(authRoutes, { prefix: '/auth', oidc, endProviderSession });
  // The sandbox wallet's page, only while the sandbox is the wallet (WALLET_API_URL unset).
  if (deps.wallet.kind === 'sandbox') await app.register(sandboxWalletRoutes);
  await app.register(impersonationRoutes, { prefix: '/auth' });
  await app.register(delegatedSessionRoutes, { prefix: '/auth' });

  await app.register(
    async (api) => {
      // Sessions are checked before bodies, so an anonymous request learns nothing about a route's schema.
      api.addHook('onRequest', async (request) => {
        if (!request.routeOptions.config.public) request.requireAuth();
      });
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
      await api.register(userRoutes);
      await api.register(aliasRoutes);
      await api.register(domainEmailRoutes);
      await api.register(domainRoutes);
      await api.register(contactRoutes);
      await api.register(mailImportRoutes);
      await api.register(mailRoutes);
      await api.register(sendingRoutes);
      await api.register(encryptedRoutes);
      await api.register(filterRoutes);
      await api.register(walletRoutes);
      await api.register(securityRoutes);
      await api.register(supportRoutes);
      await api.register(collectorRoutes);
      await api.register(spamRoutes);
    },
    { prefix: '/api/v1' },
  );

  await registerWebApp(app, config.webDistDir);
  return app;
}
