import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '@mailroom/protocol';
import { checkRouteTable } from '../../src/http/index.js';
import { createTestApp } from '../_util.js';
import { apiPath } from '../_client.js';

describe('the server and the protocol route table', () => {
  it('the app registers every route of the table and no other API route', async () => {
    const { app } = await createTestApp();
    await app.ready();
    for (const route of Object.values(apiRoutes)) {
      expect(app.hasRoute({ method: route.method, url: route.path }), `${route.method} ${route.path}`).toBe(
        true,
      );
    }
  });

  it('refuses to start with a path the table does not know, or a table route left out', async () => {
    const app = Fastify();
    checkRouteTable(app, ['/api/v1']);
    app.post(apiPath('markMessages'), async () => ({}));
    // Typed by hand on purpose: a route registered outside the table, which the check must find.
    app.get('/api/v1/messages/unlisted', async () => ({}));
    await expect(app.ready()).rejects.toThrow(
      /not in the table GET \/api\/v1\/messages\/unlisted;.*POST \/api\/v1\/messages\/move/,
    );
    await app.close();
  });
});
