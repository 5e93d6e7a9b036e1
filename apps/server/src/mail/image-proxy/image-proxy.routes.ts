import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoute } from '../../http/index.js';

import { errorBody } from '@mailroom/protocol';
import { DomainError } from '../../core/errors.js';
import { ImageFetchError, type FetchedImage, type ImageFetcher } from './fetcher.js';
import { IMAGE_PROXY_PATH, type ImageUrlSigner } from './signer.js';

export const imageProxyRoutes: FastifyPluginAsyncZod<{
  signer: ImageUrlSigner;
  fetcher: ImageFetcher;
  /** Images per minute per account. */
  rateLimit: number;
}> = async (app, { signer, fetcher, rateLimit }) => {
  app.addHook('onClose', async () => fetcher.close());
  app.route({
    ...apiRoute(app, 'imageProxy', {
      tags: ['messages'],
      summary: 'A remote image of a message, fetched by the server',
      description:
        'The reader loads remote images (after show_images=true) through this address, so the sender ' +
        'never sees the reader. Only URLs the server signed (`sig`) are fetched, from public addresses, ' +
        'following at most 3 redirects; raster image types only (no SVG), size-capped, served with ' +
        'nosniff and a sandbox CSP. 403 forbidden for a wrong signature, 502 image_unavailable when the ' +
        'image cannot be fetched or is not one, 429 too_many_requests past IMAGE_PROXY_RATE_LIMIT a minute.',
    }),
    // The query names the remote image a reader looked at: the request log keeps only the path.
    logSerializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: IMAGE_PROXY_PATH,
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
    config: {
      // Per account, not per IP: a signed-in user could otherwise make the server fetch without end.
      rateLimit: {
        max: rateLimit,
        timeWindow: '1 minute',
        keyGenerator: (request) =>
          request.principal ? `image-proxy:${request.principal.accountId}` : request.ip,
      },
    },
    handler: async (request, reply) => {
      const { url, sig } = request.query;
      if (!signer.verify(url, sig)) throw new DomainError('forbidden');
      let image: FetchedImage;
      try {
        image = await fetcher.fetch(url);
      } catch (err) {
        if (!(err instanceof ImageFetchError)) throw err;
        // A broken remote image is the sender's problem, not an error of ours: logged as information. The answer
        // says nothing of why — resolver errors and address checks would let a member probe internal names.
        request.log.info({ reason: err.reason, detail: err.message }, 'remote image not served');
        return reply.status(502).header('cache-control', 'no-store').send(errorBody('image_unavailable'));
      }
      image.body.on('error', (err) => request.log.info({ detail: err.message }, 'remote image cut off'));
      reply
        .header('content-type', image.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('content-disposition', 'inline')
        .header('cache-control', 'private, max-age=3600');
      if (image.length !== undefined) reply.header('content-length', image.length);
      return reply.send(image.body);
    },
  });
};
