/**
 * Export speed (issue 33, DESIGN §5: ≥ 2,000 messages/s): a mailbox of `count` messages of the shared corpus (seed 42)
 * stored through the store's own path (storeMessage, as every ingest does), then exported whole as mbox and as a zip
 * by the export service, its stream read as fast as it comes; messages/s, MB/s and the process's peak RSS. In
 * process, without HTTP (the route only pipes this stream to the socket).
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/export.ts [messages] [databaseUrl]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BenchRow } from './types.js';
import { corpus } from './mailbox.js';
import { migrate, openDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { openBlobStore } from '../apps/server/src/core/blobs/index.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import { parseMessage, storeMessage, systemFolder } from '../apps/server/src/mailbox/index.js';
import { startExport } from '../apps/server/src/mail/export/export.service.js';

export async function runExportBench(opts: { databaseUrl?: string; count: number }): Promise<BenchRow[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-export-bench-'));
  const db: Db = await openDatabase(
    opts.databaseUrl
      ? { kind: 'postgres', url: opts.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
  );
  const database = opts.databaseUrl ? 'PostgreSQL' : 'PGlite';
  try {
    await migrate(db);
    const blobs = await openBlobStore(db, path.join(dataDir, 'blobs'));
    const { account } = await ensureAccount(db, {
      memberId: '100000000042',
      name: 'Bench Export',
      mailDomain: 'mailroom.test',
      undoSendSeconds: 0,
    });
    const inbox = await systemFolder(db, account.id, 'inbox');
    const { files, bytes } = await corpus(opts.count);
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < files.length) {
          const raw = await fs.readFile(files[next++]!);
          await storeMessage(db, blobs, {
            accountId: account.id,
            folderId: inbox.id,
            raw,
            parsed: await parseMessage(raw),
          });
        }
      }),
    );
    const rows: BenchRow[] = [];
    const principal = { accountId: account.id, aliasEmail: null } as Parameters<typeof startExport>[2];
    for (const format of ['mbox', 'zip'] as const) {
      let peakRss = 0;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
      let written = 0;
      const started = performance.now();
      const download = await startExport(db, blobs, principal, { kind: 'mailbox' }, format);
      await pipeline(
        download.body,
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            written += chunk.length;
            done();
          },
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const rate = files.length / seconds;
      rows.push({
        name: `export ${files.length} messages (${(bytes / 1e6).toFixed(0)} MB) as ${format}`,
        value: Math.round(rate),
        unit: 'messages/s',
        target: '≥ 2000',
        ok: rate >= 2000,
        database,
        note: `${(written / 1e6 / seconds).toFixed(1)} MB/s out, ${(written / 1e6).toFixed(0)} MB, peak RSS ${(peakRss / 1e6).toFixed(0)} MB`,
      });
    }
    return rows;
  } finally {
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runExportBench({
    count: Number(process.argv[2] ?? 10_000),
    databaseUrl: process.argv[3],
  });
  for (const row of rows) console.log(`${row.database}\t${row.name}\t${row.value} ${row.unit}\t${row.note}`);
  process.exit(0);
}
