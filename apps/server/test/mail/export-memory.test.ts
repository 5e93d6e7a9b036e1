import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { cleanup, createTestApp, createTestDb, testBlobStore, testConfig } from '../_util.js';
import { mailUser } from '../_actions.js';
import type { BlobStore } from '../../src/core/blobs/index.js';

// The app's own blob store, counting the messages an export has asked it for (how far the export has gone): those it
// streams and those it takes a batch at a time.
const db = await createTestDb();
const store = await testBlobStore(db, await testConfig());
let opened = 0;
const blobs: BlobStore = Object.assign(Object.create(store) as BlobStore, {
  stream: (hash: string, range?: { start: number; end: number }) => {
    opened++;
    return store.stream(hash, range);
  },
  getMany: async (hashes: readonly string[]) => {
    opened += hashes.length;
    return store.getMany!(hashes);
  },
});
const ctx = await createTestApp({ db, blobs });
await ctx.app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

const MESSAGES = 2000;
const KINDS = 20;
/**
 * About 50 KB each: 100 MB of mail in all, more than the export may hold. (Larger ones make the test slow on PGlite,
 * which reads a blob row at ~3 MB/s.)
 */
const SIZE = 50_000;

/** The export's response, not read until asked (the stream is paused). */
function get(path: string, cookie: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { cookie } }, (res) => {
      cleanup(() => res.destroy());
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an export read by a slow client', () => {
  it('stops reading mail while the client does not read, and holds a bounded window throughout', async () => {
    const ann = await mailUser(ctx);
    for (let k = 0; k < KINDS; k++) {
      // Random text: it deflates little, so a zip is as large as the mail and the socket fills as it would.
      const text = randomBytes((SIZE * 3) / 4)
        .toString('base64')
        .replace(/.{76}/g, '$&\r\nFrom here\r\n');
      await ann.deliver({ from: 'x@example.com', subject: `Big ${k}`, text });
    }
    // The same messages again and again (rows of their own, bytes shared), so a few thousand are quick to make.
    await sql`
      insert into messages (account_id, folder_id, uid, blob_hash, size, subject, from_email, received_at)
      select m.account_id, m.folder_id, m.uid + ${KINDS} * g, m.blob_hash, m.size, m.subject, m.from_email,
        m.received_at + g * interval '1 second'
      from messages m, generate_series(1, ${MESSAGES / KINDS - 1}) g
      where m.account_id = ${ann.accountId}`.execute(db);
    const cookie = [...ann.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

    for (const format of ['mbox', 'zip']) {
      opened = 0;
      const res = await get(`/api/v1/export/folders/${ann.folders.inbox}?format=${format}`, cookie);
      expect(res.statusCode).toBe(200);
      // The client reads nothing for a while: the export fills the socket's buffers (the kernel's grow for a
      // while on loopback) and waits.
      let stalled = -1;
      for (let i = 0; i < 20 && opened !== stalled; i++) {
        stalled = opened;
        await sleep(500);
      }
      expect(opened).toBe(stalled);
      // Two batches of the export (4 MB each) and the kernel's socket buffers: a fifth of the 100 MB at most.
      expect(stalled).toBeLessThan(MESSAGES / 5);

      // Then it reads slowly, a pause after each megabyte. What the server holds is the messages it has asked the
      // store for and the client has not received yet (counted by their separators, `From ` lines or zip entry
      // headers): that window stays a few megabytes while 100 MB go by. (The process's memory says little here:
      // PGlite's WebAssembly heap, in the same process, grows with the rows it has read.)
      const separator = Buffer.from(format === 'mbox' ? '\nFrom ' : 'PK\x03\x04', 'latin1');
      let bytes = 0;
      let received = 0;
      let widest = 0;
      let tail = Buffer.alloc(0);
      await new Promise<void>((resolve, reject) => {
        let sincePause = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          const seen = Buffer.concat([tail, chunk]);
          for (let at = seen.indexOf(separator); at !== -1; at = seen.indexOf(separator, at + 1)) received++;
          tail = seen.subarray(Math.max(0, seen.length - separator.length + 1));
          widest = Math.max(widest, opened - received);
          sincePause += chunk.length;
          if (sincePause > 1_000_000) {
            sincePause = 0;
            res.pause();
            setTimeout(() => res.resume(), 2);
          }
        });
        res.on('end', resolve);
        res.on('error', reject);
        res.resume();
      });
      expect(opened).toBe(MESSAGES);
      expect(received).toBeGreaterThanOrEqual(MESSAGES - 1);
      expect(bytes).toBeGreaterThan(MESSAGES * SIZE * 0.7);
      expect(widest).toBeLessThan(MESSAGES / 5);
    }
  }, 240_000);

  it('runs at most two exports of a mailbox at once and frees a place when one ends', async () => {
    const bob = await mailUser(ctx, 'Bob Ray');
    for (let i = 0; i < 30; i++)
      await bob.deliver({ from: 'x@example.com', subject: `M ${i}`, text: 'x'.repeat(200_000) });
    const cookie = [...bob.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const path = `/api/v1/export/folders/${bob.folders.inbox}`;
    const first = await get(path, cookie);
    const second = await get(path, cookie);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const third = await get(path, cookie);
    expect(third.statusCode).toBe(429);
    const body = await new Promise<string>((resolve) => {
      let text = '';
      third.on('data', (c: Buffer) => (text += c.toString()));
      third.on('end', () => resolve(text));
      third.resume();
    });
    expect(JSON.parse(body).error.meta.i8s).toBe('export_limit_reached');
    // The client that goes away gives its place back.
    first.destroy();
    await sleep(200);
    const fourth = await get(path, cookie);
    expect(fourth.statusCode).toBe(200);
    second.destroy();
    fourth.destroy();
  });
});
