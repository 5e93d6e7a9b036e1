import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { startS3 } from '../../../../test-support/s3.js';
import { migrate } from '../../src/core/db/index.js';
import { createSession } from '../../src/auth/index.js';
import { createAccount } from '../_mail.js';
import { cleanup } from '../_util.js';
import { exited, prepareDatabase, startCluster, stopCluster } from '../_server.js';
import { startSink } from '../_sending.js';
import { apiPath } from '../_client.js';

/**
 * Three processes, one database (issue 19): three real servers (main.ts) on one PostgreSQL database and one S3
 * bucket (s3rver), a relay sink on loopback. Mail comes in over SMTP to all three and members send mail out through
 * the API of all three (the outbox, claimed with FOR UPDATE SKIP LOCKED, relays it); one node gets SIGKILL in the
 * middle of both. Then every message that got 250 is stored exactly once, and every outgoing message reaches the relay.
 *
 * What the outbox promises: no loss, and at most once except for one window. A row is claimed with a lease
 * (OUTBOX_LEASE_MS), relayed, then marked sent; a process killed inside its SMTP transaction with the relay once the
 * relay has the message's data (before or after its 250) and before that mark commits leaves the row to be claimed
 * again once the lease runs out, so that message reaches the relay twice. Nothing on our side closes that window
 * (the relay's 250 and our commit are two systems); only the relay's own Message-ID deduplication would. So the test
 * allows a second copy only of a message whose first copy the relay had received before the kill, at most one per
 * relay connection of the killed node (4), and never a third.
 */
const NODES = 3;
const LEASE_MS = 6_000;
const RELAY_CONNECTIONS = 4;

const phase = (what: string) => process.env.CRASH_DEBUG && console.error(new Date().toISOString(), what);

const header = (raw: Buffer, name: string) => {
  const head = raw
    .subarray(0, raw.indexOf('\r\n\r\n'))
    .toString('utf8')
    .replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim();
};

describe.skipIf(!process.env.DATABASE_URL)(
  'three server processes on one PostgreSQL database and one S3 bucket',
  () => {
    it(
      'a node killed during SMTP ingest and outbox relay loses nothing: each 250 stored once, each outgoing message relayed once',
      { timeout: 240_000 },
      async () => {
        const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-cluster-kill-'));
        cleanup(() => fs.rm(root, { recursive: true, force: true }));
        const database = await prepareDatabase(root);
        const s3 = await startS3({ dir: path.join(root, 's3') });
        cleanup(() => s3.stop());
        // A relay that takes a moment per message, so a node always has relay attempts under way when it is killed.
        const sink = await startSink({ delayMs: 40 });

        let db = await database.open();
        await migrate(db);
        const receiver = await createAccount(db, 'Rita Receiver');
        const senders = await Promise.all(
          Array.from({ length: NODES }, async (_, i) => {
            const account = await createAccount(db, `Sam Sender ${i + 1}`);
            const { token } = await createSession(db, { accountId: account.id, aliasEmail: null }, 3600_000);
            return { account, token };
          }),
        );
        await db.destroy();

        const nodes = await startCluster({
          count: NODES,
          root,
          databaseUrl: database.url!,
          s3Env: s3.env,
          relayPort: sink.port,
          env: { OUTBOX_POLL_MS: '200', OUTBOX_RETRY_BASE_MS: '500', OUTBOX_LEASE_MS: String(LEASE_MS) },
        });
        phase('nodes started');

        const timeouts = { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 15_000 };
        const accepted = new Set<string>(); // Message-IDs of incoming mail that got 250
        const sentOk = new Set<string>(); // subjects of outgoing mail the API answered 200 for
        let seq = 0;
        let stop = false;
        const victim = nodes[1]!;
        // The kill comes once both kinds of traffic are well under way: a random number of messages relayed and taken in.
        const killAt = {
          relayed: 3 + Math.floor(Math.random() * 12),
          accepted: 5 + Math.floor(Math.random() * 20),
        };
        let sinkAtKill = -1;
        let killedAt = 0;
        const killer = (async () => {
          const deadline = Date.now() + 60_000;
          while (sink.messages.length < killAt.relayed || accepted.size < killAt.accepted) {
            if (Date.now() > deadline || stop) break;
            await new Promise((r) => setTimeout(r, 10));
          }
          // The load ended first: the kill below, after it, is the one that counts.
          if (stop) return;
          victim.dead = true;
          sinkAtKill = sink.messages.length;
          killedAt = Date.now();
          victim.child.kill('SIGKILL');
          phase(`killed node 2 with ${sinkAtKill} relayed, ${accepted.size} taken in`);
        })();
        // The load goes on for a while on the two nodes left.
        const running = () => !stop && (killedAt === 0 || Date.now() - killedAt < 3_000);

        const smtpSender = async (node: (typeof nodes)[number]) => {
          const transport = nodemailer.createTransport({
            host: '127.0.0.1',
            port: node.smtpPort,
            ignoreTLS: true,
            ...timeouts,
          });
          while (running() && !node.dead) {
            const messageId = `<kill-in-${seq++}-${randomBytes(4).toString('hex')}@example.org>`;
            try {
              const info = await transport.sendMail({
                from: 'outside@example.org',
                to: receiver.email,
                subject: `incoming ${messageId}`,
                messageId,
                text: `${messageId}\n${randomBytes(1500).toString('base64')}`,
                // Above the database store's 128 KiB: the message's blob goes to S3.
                ...(seq % 5 === 0
                  ? { attachments: [{ filename: 'big.bin', content: randomBytes(200_000) }] }
                  : {}),
              });
              if (/^250 /.test(info.response)) accepted.add(messageId);
            } catch {
              // No 250: stored or not, both are allowed.
            }
          }
          transport.close();
        };
        const apiSender = async (node: (typeof nodes)[number], token: string, from: string) => {
          while (running() && !node.dead) {
            const subject = `outgoing ${seq++} ${randomBytes(4).toString('hex')}`;
            try {
              const response = await fetch(`${node.http}${apiPath('sendMessage')}`, {
                method: 'POST',
                headers: {
                  cookie: `mr_sid=${token}`,
                  accept: 'application/json',
                  'content-type': 'application/json',
                  'x-mailroom-csrf': '1',
                  origin: node.http,
                },
                body: JSON.stringify({
                  subject,
                  fields: { from: { email: from, name: '' }, to: [{ email: 'far@example.com', name: '' }] },
                  content: `<p>${subject}</p>`,
                  content_type: 'text/html',
                }),
                signal: AbortSignal.timeout(15_000),
              });
              if (response.ok) sentOk.add(subject);
              else if (!node.dead) throw new Error(`send: ${response.status} ${await response.text()}`);
            } catch (error) {
              if (!node.dead) throw error;
            }
          }
        };
        await Promise.all([
          ...nodes.map((node) => smtpSender(node)),
          ...nodes.map((node, i) => apiSender(node, senders[i]!.token, senders[i]!.account.email)),
        ]);
        stop = true;
        await killer;
        if (!victim.dead) {
          victim.dead = true;
          sinkAtKill = sink.messages.length;
          victim.child.kill('SIGKILL');
        }
        await exited(victim.child);
        phase(`load done: ${accepted.size} incoming got 250, ${sentOk.size} sent`);
        expect(accepted.size).toBeGreaterThan(10);
        expect(sentOk.size).toBeGreaterThan(10);

        // The survivors deliver what the dead node held once its lease runs out: wait until nothing is queued.
        db = await database.open();
        try {
          const deadline = Date.now() + LEASE_MS + 60_000;
          for (;;) {
            const queued = await db
              .selectFrom('outbox')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('status', '=', 'queued')
              .executeTakeFirstOrThrow();
            if (Number(queued.n) === 0) break;
            if (Date.now() > deadline) throw new Error(`${queued.n} outbox rows still queued`);
            await new Promise((r) => setTimeout(r, 200));
          }
          // A late duplicate would come from a row still queued, and there is none; a moment for the last replies.
          await new Promise((r) => setTimeout(r, 500));

          // Incoming: each Message-ID that got 250 once in the receiver's mailbox, and no Message-ID twice.
          const stored = await db
            .selectFrom('messages')
            .select('message_id')
            .where('account_id', '=', receiver.id)
            .execute();
          // Stored as the parser gives it, without the angle brackets.
          const storedIds = stored.map((r) => `<${(r.message_id ?? '').replace(/^<|>$/g, '')}>`);
          const storedCount = new Map<string, number>();
          for (const id of storedIds) storedCount.set(id, (storedCount.get(id) ?? 0) + 1);
          for (const id of accepted) expect(storedCount.get(id), id).toBe(1);
          expect([...storedCount.values()].filter((n) => n > 1)).toEqual([]);

          // Outgoing: every message the outbox holds (all the API said 200 for, and any the dead node committed
          // without answering) reached the relay, each once but for the kill's window.
          const outbox = await db
            .selectFrom('outbox')
            .select(['message_id', 'status', 'attempts'])
            .where('local', '=', false)
            .execute();
          expect(outbox.every((r) => r.status === 'sent')).toBe(true);
          const relayed = new Map<string, number[]>();
          const relayedSubjects = new Set<string>();
          sink.messages.forEach((m, index) => {
            const id = (header(m.raw, 'Message-ID') ?? '').replace(/^<|>$/g, '');
            relayed.set(id, [...(relayed.get(id) ?? []), index]);
            relayedSubjects.add(header(m.raw, 'Subject') ?? '');
          });
          for (const subject of sentOk) expect(relayedSubjects.has(subject), subject).toBe(true);
          for (const row of outbox)
            expect(relayed.has(row.message_id ?? ''), row.message_id ?? '').toBe(true);
          expect(relayed.size).toBe(outbox.length);
          const twice = [...relayed].filter(([, copies]) => copies.length > 1);
          for (const [id, copies] of twice) {
            expect(copies, id).toHaveLength(2);
            // The first copy was accepted before the kill: the window between the relay's 250 and our commit.
            expect(copies[0]!, id).toBeLessThan(sinkAtKill);
          }
          expect(twice.length).toBeLessThanOrEqual(RELAY_CONNECTIONS);
          console.info(
            `cluster kill: node 2 killed after ${sinkAtKill} relayed; incoming ${accepted.size} got 250 ` +
              `(${stored.length} stored); outgoing ${sentOk.size} sent, ${outbox.length} in the outbox, ` +
              `${sink.messages.length} relayed, ${twice.length} twice (relay's 250 before the kill, no commit), ` +
              `${outbox.filter((r) => r.attempts > 1).length} taken again after the dead node's lease`,
          );
        } finally {
          await db.destroy();
        }
        await stopCluster(nodes);
      },
    );
  },
);
