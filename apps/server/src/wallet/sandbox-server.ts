import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { z } from 'zod';
import type { Db, InvoiceStatus } from '../core/db/index.js';
import {
  findSandboxInvoice,
  insertSandboxInvoice,
  insertSandboxNotice,
  refundSandboxInvoice,
  settleSandboxInvoice,
  type SandboxInvoiceRow,
} from './sandbox.repository.js';
import { newSandboxInvoiceId, sandboxBankAccounts } from './sandbox-gateway.js';
import { signWebhook } from './webhook-signature.js';

/** A status notice the wallet sends to the webhook. */
export interface WalletWebhookEvent {
  event_id: string;
  invoice_id: string;
  status: InvoiceStatus;
  at: string;
}

export interface SandboxWalletServer {
  /** Where its API listens, e.g. http://127.0.0.2:40123 (WALLET_API_URL). */
  readonly url: string;
  /** The bearer key it accepts (WALLET_API_KEY). */
  readonly apiKey: string;
  /** Where status notices go (our POST /api/v1/wallet/webhook); undefined: none are sent. */
  webhookUrl: string | undefined;
  /** Knob: every API answer waits this long first (a slow wallet; past the client's timeout, an absent one). */
  delayMs: number;
  /** Knob: the next `count` API requests answer `status` (a wallet in trouble), before doing anything. */
  failNext(count: number, status?: number): void;
  /** Knob: keep webhooks in `held` instead of sending them, so a test delivers them in any order, any number of times. */
  holdWebhooks: boolean;
  readonly held: WalletWebhookEvent[];
  /** Every event it made, in order, sent or held. */
  readonly events: WalletWebhookEvent[];
  /** API requests answered so far. */
  readonly requests: number;
  /**
   * Sends one event to the webhook (again), signed now (or at `signedAt`, unix seconds), to `webhookUrl` or `to`;
   * answers the HTTP status.
   */
  deliver(event: WalletWebhookEvent, signedAt?: number, to?: string): Promise<number>;
  /** The member pays or rejects in their wallet application: the invoice changes and the webhook is told. */
  pay(invoiceId: string): Promise<SandboxInvoiceRow>;
  reject(invoiceId: string): Promise<SandboxInvoiceRow>;
  close(): Promise<void>;
}

const createBody = z.object({
  member_id: z.string().min(1).max(64),
  amount: z.string().regex(/^\d{1,12}(\.\d{1,8})?$/),
  currency: z.string().min(1).max(16),
  description: z.string().max(500),
});
const noticeBody = z.object({
  kind: z.string().min(1).max(40),
  title: z.string().max(200),
  text: z.string().max(4000),
});

/**
 * The sandbox wallet as a server of its own, speaking the provider's API as README describes it over a real socket
 * (tests run the HTTP client against it; its state is the sandbox tables of `db`), with knobs for delay, 5xx and the
 * order of webhooks. Listens on loopback only.
 */
export async function startSandboxWalletServer(opts: {
  db: Db;
  /** A loopback address (127.0.0.x); default 127.0.0.1. */
  host?: string;
  port?: number;
  /** Where status notices go (our POST /api/v1/wallet/webhook); none: no webhooks. */
  webhookUrl?: string;
  webhookSecret: string;
  apiKey?: string;
}): Promise<SandboxWalletServer> {
  const { db } = opts;
  const host = opts.host ?? '127.0.0.1';
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))
    throw new Error('the sandbox wallet listens on loopback only');
  const apiKey = opts.apiKey ?? `sandbox-${randomUUID()}`;
  let failures: { count: number; status: number } = { count: 0, status: 503 };
  let requests = 0;
  const events: WalletWebhookEvent[] = [];
  const held: WalletWebhookEvent[] = [];

  const app = Fastify({ logger: false });
  let url = '';
  const view = (row: SandboxInvoiceRow) => ({
    id: row.id,
    member_id: row.member_id,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    status: row.status,
    pay_url: `${url}/v1/invoices/${row.id}`,
    created_at: row.created_at.toISOString(),
  });

  app.addHook('onRequest', async (request, reply) => {
    requests += 1;
    if (server.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, server.delayMs));
    if (failures.count > 0) {
      failures.count -= 1;
      return reply.status(failures.status).send({ error: { code: 'unavailable', message: 'sandbox knob' } });
    }
    if (request.headers.authorization !== `Bearer ${apiKey}`)
      return reply.status(401).send({ error: { code: 'unauthorized', message: 'bad API key' } });
  });
  const notFound = { error: { code: 'not_found', message: 'no such invoice' } };
  const invalid = { error: { code: 'invalid_request', message: 'invalid request' } };

  app.post('/v1/invoices', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    const body = createBody.safeParse(request.body);
    if (typeof key !== 'string' || !key || key.length > 200 || !body.success)
      return reply.status(422).send(invalid);
    const row = await insertSandboxInvoice(db, {
      id: newSandboxInvoiceId(),
      member_id: body.data.member_id,
      amount: body.data.amount,
      currency: body.data.currency,
      description: body.data.description,
      idempotency_key: key,
    });
    // The same key with another invoice's content is the caller's mistake, not a retry.
    if (row.member_id !== body.data.member_id || row.amount !== body.data.amount)
      return reply.status(409).send({ error: { code: 'idempotency_conflict', message: 'key reused' } });
    return reply.status(201).send(view(row));
  });
  app.get<{ Params: { id: string } }>('/v1/invoices/:id', async (request, reply) => {
    const row = await findSandboxInvoice(db, request.params.id);
    return row ? view(row) : reply.status(404).send(notFound);
  });
  app.post<{ Params: { id: string } }>('/v1/invoices/:id/cancel', async (request, reply) => {
    const settled = await settleSandboxInvoice(db, request.params.id, 'cancelled');
    if (!settled) return reply.status(404).send(notFound);
    if (settled.changed) await emit(settled.invoice);
    return view(settled.invoice);
  });
  app.post<{ Params: { id: string } }>('/v1/invoices/:id/refund', async (request, reply) => {
    const row = await refundSandboxInvoice(db, request.params.id);
    return row ? view(row) : reply.status(404).send(notFound);
  });
  app.post<{ Params: { memberId: string } }>(
    '/v1/members/:memberId/notifications',
    async (request, reply) => {
      const body = noticeBody.safeParse(request.body);
      if (!body.success) return reply.status(422).send(invalid);
      await insertSandboxNotice(db, { member_id: request.params.memberId, ...body.data });
      return reply.status(202).send({ ok: true });
    },
  );
  app.get<{ Params: { memberId: string } }>('/v1/members/:memberId/bank-accounts', async (request) => ({
    bank_accounts: sandboxBankAccounts(request.params.memberId),
  }));

  async function deliver(
    event: WalletWebhookEvent,
    signedAt = Math.floor(Date.now() / 1000),
    to = server.webhookUrl,
  ): Promise<number> {
    if (!to) return 0;
    const body = JSON.stringify(event);
    const response = await fetch(to, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wallet-signature': signWebhook(opts.webhookSecret, body, signedAt),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  }

  async function emit(row: SandboxInvoiceRow): Promise<void> {
    const event = {
      event_id: `evt_${randomUUID()}`,
      invoice_id: row.id,
      status: row.status,
      at: new Date().toISOString(),
    };
    events.push(event);
    if (server.holdWebhooks) held.push(event);
    else await deliver(event).catch(() => 0);
  }

  async function settle(invoiceId: string, status: 'paid' | 'rejected'): Promise<SandboxInvoiceRow> {
    const settled = await settleSandboxInvoice(db, invoiceId, status);
    if (!settled) throw new Error(`the sandbox wallet has no invoice ${invoiceId}`);
    if (settled.changed) await emit(settled.invoice);
    return settled.invoice;
  }

  await app.listen({ host, port: opts.port ?? 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the sandbox wallet did not listen');
  url = `http://${host}:${address.port}`;

  const server: SandboxWalletServer = {
    url,
    apiKey,
    webhookUrl: opts.webhookUrl,
    delayMs: 0,
    holdWebhooks: false,
    held,
    events,
    get requests() {
      return requests;
    },
    failNext(count, status = 503) {
      failures = { count, status };
    },
    deliver,
    pay: (id) => settle(id, 'paid'),
    reject: (id) => settle(id, 'rejected'),
    close: () => app.close(),
  };
  return server;
}
