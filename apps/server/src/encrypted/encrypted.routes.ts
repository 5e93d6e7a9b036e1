import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../http/index.js';
import type { FastifyReply } from 'fastify';

import { decryptForMessage, decryptParams, openEncrypted, type EncryptedDeps } from './encrypted.service.js';

function sendCiphertext(reply: FastifyReply, ciphertext: Buffer) {
  return reply.header('cache-control', 'no-store').type('application/octet-stream').send(ciphertext);
}

/**
 * Opening password-encrypted messages. The two public routes work without a session (recipients
 * may have no account); every route is limited per IP, on top of the per-message lockout.
 */
export const encryptedRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: EncryptedDeps = { ...app.deps, log: app.log };
  const rateLimit = { max: app.deps.config.encrypted.rateLimit, timeWindow: '1 minute' };

  app.route({
    ...apiRoute(app, 'decryptParams', {
      tags: ['decrypt'],
      summary: 'Key derivation params of an encrypted message (stable fake ones for unknown ids)',
      security: [],
    }),
    config: { public: true, rateLimit },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return decryptParams(deps, request.params.id);
    },
  });

  app.route({
    ...apiRoute(app, 'decrypt', {
      tags: ['decrypt'],
      summary:
        'The ciphertext (application/octet-stream) once the authentication value is proven; ' +
        'decrypt_failed alike for a wrong password and an unknown or expired id',
      security: [],
    }),
    config: { public: true, rateLimit },
    handler: async (request, reply) =>
      sendCiphertext(reply, await openEncrypted(deps, request.body.id, request.body.auth)),
  });

  app.route({
    ...apiRoute(app, 'decryptMessage', {
      tags: ['decrypt'],
      summary:
        'For an encrypted notice in the mailbox: its params without auth (JSON), its ciphertext with auth',
    }),
    config: { rateLimit },
    handler: async (request, reply) => {
      const result = await decryptForMessage(deps, request.requireAuth(), request.body);
      if (Buffer.isBuffer(result)) return sendCiphertext(reply, result);
      return reply.header('cache-control', 'no-store').send(result);
    },
  });
};
