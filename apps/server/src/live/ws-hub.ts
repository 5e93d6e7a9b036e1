import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { Gauge } from 'prom-client';
import {
  LIVE_SYNC_MARGIN_MS,
  WS_CLOSE_SESSION_ENDED,
  WS_OPENING_MESSAGE,
  type LiveSyncFrame,
  type MailEvent,
} from '@mailroom/protocol';
import { findLiveSession, SESSION_COOKIE, type LiveSession } from '../auth/index.js';
import { scopeOf } from '../addresses/index.js';
import { DomainError } from '../core/errors.js';
import type { Scope } from '../mailbox/index.js';
import { ScopedEvents } from './scoped-events.js';
import { metricsRegistry } from '../core/metrics.js';

export interface LiveUpdatesOptions {
  /** Ping every this often; a client that has not answered the previous ping is dropped. */
  heartbeatMs?: number;
  /** How often an open socket's session is looked up again (sign-out, expiry). */
  sessionRecheckMs?: number;
  /** Bytes queued for one client beyond which it is dropped rather than buffered further. */
  maxBufferedBytes?: number;
}

/**
 * Close codes (RFC 6455 §7.4): 1008 policy violation, here a session that ended; 1001 going away, this process
 * stopping (the page reconnects, through the load balancer, to another node).
 */
const CLOSE_SESSION_ENDED = WS_CLOSE_SESSION_ENDED;
const CLOSE_GOING_AWAY = 1001;

const openClients = new Gauge({
  name: 'mailroom_websocket_clients',
  help: 'Open /ws live-update sockets in this process',
  registers: [metricsRegistry],
});

/** A server clock a client sends back (ms); anything else is as if none had been sent. */
function clockParam(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

/** setTimeout's longest delay (about 24.8 days); a later expiry is left to the periodic re-check. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface LiveClient {
  socket: WebSocket;
  token: string;
  /** The session's id, as the bus names a session that ended. */
  sessionId: string;
  accountId: number;
  alive: boolean;
  sessionCheckedAt: number;
  expiryTimer: NodeJS.Timeout | undefined;
}

/**
 * The /ws hub (SPEC §4): a signed-in page opens a websocket on our own origin, sends
 * 'connection opening' and gets it back, then receives its account's mail events as JSON text
 * frames. Registered before every other route, since @fastify/websocket must see all routes to
 * refuse upgrades on the others.
 */
export const liveUpdates = fp<LiveUpdatesOptions>(
  async (app, opts) => {
    const heartbeatMs = opts.heartbeatMs ?? 30_000;
    const sessionRecheckMs = opts.sessionRecheckMs ?? 5 * 60_000;
    const maxBufferedBytes = opts.maxBufferedBytes ?? 1024 * 1024;
    const publicOrigin = new URL(app.deps.config.publicUrl).origin;
    const clients = new Set<LiveClient>();

    // Clients only ever send the opening line; anything big is not ours.
    // On close every socket is told 'going away' before the listener stops (the default closes with no code).
    await app.register(websocket, {
      options: { maxPayload: 4096 },
      preClose(done) {
        for (const client of this.websocketServer.clients)
          client.close(CLOSE_GOING_AWAY, 'server shutting down');
        // The HTTP server's close waits for these sockets to end; nothing else need wait here.
        this.websocketServer.close();
        done();
      },
    });

    /**
     * Runs before the upgrade, so a refusal is a plain HTTP 401/403 and no socket opens. A
     * browser always sends Origin on a websocket handshake and cookies go along cross-site, so
     * the Origin check is what stops another site's page from reading a member's events
     * (cross-site websocket hijacking). Like the CSRF check, our own origin as the request
     * names it is accepted too (the Vite dev proxy keeps the Host header).
     */
    const admit = async (request: FastifyRequest) => {
      request.requireAuth();
      const origin = request.headers.origin;
      if (origin && origin !== publicOrigin && origin !== `${request.protocol}://${request.host}`)
        throw new DomainError('csrf_failed');
      // The session's id and expiry, which the socket needs to end with it, and what it may see.
      const session = await findLiveSession(app.deps.db, request.cookies[SESSION_COOKIE] ?? '');
      if (!session) throw new DomainError('expected_token');
      admitted.set(request, { session, scope: await scopeOf(app.deps.db, session.principal) });
    };
    const admitted = new WeakMap<FastifyRequest, { session: LiveSession; scope: Scope }>();

    // Synchronous, so that no frame the client sends right after the upgrade is missed.
    app.get('/ws', { websocket: true, onRequest: admit }, (socket, request) => {
      const { session, scope } = admitted.get(request)!;
      const client: LiveClient = {
        socket,
        token: request.cookies[SESSION_COOKIE]!,
        sessionId: session.id,
        accountId: session.principal.accountId,
        alive: true,
        sessionCheckedAt: Date.now(),
        expiryTimer: undefined,
      };
      clients.add(client);
      openClients.inc();
      const expiresInMs = session.expiresAt.getTime() - Date.now();
      if (expiresInMs < MAX_TIMER_MS)
        client.expiryTimer = setTimeout(() => endClient(client), Math.max(0, expiresInMs));

      const send = (event: MailEvent) => {
        if (socket.readyState !== socket.OPEN) return;
        // A client that cannot keep up is dropped; it reconnects and reloads what it shows.
        if (socket.bufferedAmount > maxBufferedBytes) {
          request.log.info({ accountId: client.accountId }, 'websocket client too slow; dropped');
          socket.terminate();
          return;
        }
        socket.send(JSON.stringify(event));
      };
      // A session held to one address hears only of the mail it may see.
      let forward = send;
      if (scope.kind !== 'all') {
        const scoped = new ScopedEvents(app.deps.db, client.accountId, scope, request.log);
        scoped.prime();
        forward = (event) => scoped.push(event, send);
      }
      const unsubscribe = app.deps.events.subscribe(client.accountId, forward);
      // From here on every event reaches the socket. What happened between the page reading its data and now is
      // replayed from the bus's recent events, so the page need not read it all again (#13).
      const subscribedAt = Date.now();
      const sendSync = (frame: LiveSyncFrame) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
      };
      const catchUp = (since: number | null) => {
        const missed =
          since === null
            ? null
            : app.deps.events.eventsSince(client.accountId, since - LIVE_SYNC_MARGIN_MS, subscribedAt);
        if (missed === null) return sendSync({ sync: 'gap' });
        for (const event of missed) forward(event);
        sendSync({ sync: 'caught_up', at: subscribedAt });
      };
      // Only a client that says since when answers these frames; one that does not reads its data again itself.
      const since = new URL(request.url, 'http://x').searchParams.get('since');
      if (since !== null) catchUp(clockParam(since));

      socket.on('message', (data, isBinary) => {
        if (isBinary || socket.readyState !== socket.OPEN) return;
        const text = data.toString();
        if (text === WS_OPENING_MESSAGE) return socket.send(WS_OPENING_MESSAGE);
        // {"since": n}: data read after the socket opened, but begun before it had subscribed.
        const since = /^\{"since":(\d{1,15})\}$/.exec(text)?.[1];
        if (since !== undefined) catchUp(clockParam(since));
      });
      socket.on('pong', () => {
        client.alive = true;
      });
      socket.on('close', () => {
        openClients.dec();
        unsubscribe();
        clearTimeout(client.expiryTimer);
        clients.delete(client);
      });
    });

    const heartbeat = setInterval(() => {
      const now = Date.now();
      for (const client of clients) {
        if (!client.alive) {
          client.socket.terminate();
          continue;
        }
        client.alive = false;
        client.socket.ping();
        if (now - client.sessionCheckedAt >= sessionRecheckMs) {
          client.sessionCheckedAt = now;
          void recheckSession(client);
        }
      }
    }, heartbeatMs);
    heartbeat.unref();

    const endClient = (client: LiveClient) => client.socket.close(CLOSE_SESSION_ENDED, 'session ended');

    // A socket outlives its upgrade request: a session that ends (sign-out on any process,
    // replacement at the next sign-in) closes its sockets at once, and expiry by its timer.
    const stopListening = app.deps.events.onSessionEnded((sessionId) => {
      for (const client of clients) if (client.sessionId === sessionId) endClient(client);
    });

    /** The backstop for an end the bus could not announce (a lost notification, a row deleted by hand). */
    const recheckSession = async (client: LiveClient) => {
      try {
        const session = await findLiveSession(app.deps.db, client.token);
        if (session?.principal.accountId !== client.accountId) endClient(client);
      } catch (err) {
        // A database hiccup is not a sign-out; try again at the next check.
        app.log.warn({ err }, 'websocket session check failed');
      }
    };

    app.addHook('onClose', async () => {
      clearInterval(heartbeat);
      stopListening();
    });
  },
  { name: 'live-updates', dependencies: ['@fastify/cookie'] },
);
