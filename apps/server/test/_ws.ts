import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { MailEvent } from '@mailroom/protocol';
import { cleanup } from './_util.js';

/** Listens on a free loopback port and returns the websocket URL of /ws. */
export async function listenWs(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
}

/** A live client that records every text frame with the time it arrived. */
export class LiveClient {
  readonly frames: { data: string; at: number }[] = [];
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.frames.push({ data: data.toString(), at: performance.now() });
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Opens /ws with the session cookie; rejects with the HTTP status when the upgrade is refused. */
  static open(
    url: string,
    opts: { token?: string; origin?: string; autoPong?: boolean } = {},
  ): Promise<LiveClient> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.cookie = `mr_sid=${opts.token}`;
    const ws = new WebSocket(url, {
      headers,
      origin: opts.origin ?? 'http://mailroom.localhost',
      autoPong: opts.autoPong ?? true,
    });
    const client = new LiveClient(ws);
    cleanup(() => ws.terminate());
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        reject(new RefusedUpgrade(res.statusCode ?? 0));
        ws.terminate();
      });
      ws.once('error', reject);
    });
  }

  /** How the socket closed, failing when it is still open after `timeoutMs`. */
  closedWithin(timeoutMs: number): Promise<{ code: number; reason: string }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([this.closed, late]).finally(() => clearTimeout(timer));
  }

  /** Sends 'connection opening' and waits for the server's echo, as the web client does. */
  async greet(): Promise<string> {
    const from = this.frames.length;
    this.ws.send('connection opening');
    return (await this.next(from)).data;
  }

  /** The first frame at or after index `from`, waiting up to `timeoutMs` for it. */
  async next(from: number, timeoutMs = 5000): Promise<{ data: string; at: number }> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length <= from) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame #${from} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames[from]!;
  }

  /** Waits until `count` events arrived after index `from` and returns them parsed. */
  async events(from: number, count: number): Promise<MailEvent[]> {
    await this.next(from + count - 1);
    return this.frames.slice(from, from + count).map((f) => JSON.parse(f.data) as MailEvent);
  }

  /** Every event received so far (the opening echo left out). */
  received(): MailEvent[] {
    return this.frames
      .filter((f) => f.data !== 'connection opening')
      .map((f) => JSON.parse(f.data) as MailEvent);
  }
}

export class RefusedUpgrade extends Error {
  constructor(readonly status: number) {
    super(`websocket upgrade refused with HTTP ${status}`);
  }
}
