import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DomainError } from '../core/errors.js';
import { apiRoute } from '../http/index.js';
import { verifyWebhookSignature } from './webhook-signature.js';
import { receiveWalletWebhook } from './webhook.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as it came, for routes that check a signature over it (the wallet webhook). */
    rawBody?: string;
  }
}

/**
 * POST /api/v1/wallet/webhook: the wallet's signed notice of an invoice's new status. No session and no CSRF header
 * (the wallet is a server, not a browser): the X-Wallet-Signature over the raw body with WALLET_WEBHOOK_SECRET is what
 * admits it, checked before the body is validated, within a 5-minute window of its timestamp. Without a secret (the
 * embedded sandbox needs no webhook) every notice is refused.
 */
export const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  // This plugin's own JSON parser (encapsulated: the other routes keep Fastify's) keeps the raw text.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new DomainError('invalid_request_params'), undefined);
    }
  });
  app.route({
    ...apiRoute(app, 'walletWebhook', {
      tags: ['wallet'],
      summary: "The wallet's signed notice of an invoice's status",
    }),
    config: { public: true, signedWebhook: true },
    preValidation: async (request) => {
      const secret = config.wallet.webhookSecret;
      const header = request.headers['x-wallet-signature'];
      const signed =
        secret !== undefined &&
        verifyWebhookSignature(
          secret,
          typeof header === 'string' ? header : undefined,
          request.rawBody ?? '',
          Math.floor(Date.now() / 1000),
        );
      if (!signed) throw new DomainError('forbidden', 'The wallet signature does not match');
    },
    handler: async (request) => {
      const outcome = await receiveWalletWebhook(app.deps, request.body);
      request.log.info(
        { invoice: request.body.invoice_id, status: request.body.status, outcome },
        'wallet webhook',
      );
      return { ok: true as const };
    },
  });
};
