import fp from 'fastify-plugin';
import { SERVER_CLOCK_HEADER } from '@mailroom/protocol';

const startedAt = new WeakMap<object, number>();

/**
 * Every API answer says when the server began it (`x-mailroom-clock`, ms): its data is complete up to then, so a
 * websocket opened later catches up from there instead of the page reading it all again (live/ws-hub.ts).
 */
export const serverClockPlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      startedAt.set(request, Date.now());
    });
    app.addHook('onSend', async (request, reply) => {
      const at = startedAt.get(request);
      if (at !== undefined && request.url.startsWith('/api/')) reply.header(SERVER_CLOCK_HEADER, String(at));
    });
  },
  { name: 'server-clock' },
);
