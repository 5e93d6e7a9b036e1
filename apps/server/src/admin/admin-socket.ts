import fs from 'node:fs/promises';
import net from 'node:net';
import type { Config } from '../config.js';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import type { InvoicePurposes } from '../wallet/index.js';
import { adminCommandSchema, runAdminCommand } from './commands.js';
import { adminSocketPath, type AdminReply as Reply } from './admin-client.js';

/**
 * PGlite allows one process per data folder, so while the server runs the CLI asks it over
 * a Unix socket under DATA_DIR (owner-only permissions) instead of opening the database.
 * Protocol: one JSON line each way (the CLI's side: admin-client.ts).
 */

export async function startAdminSocket(
  db: Db,
  config: Config,
  invoicePurposes?: InvoicePurposes,
): Promise<{ close(): Promise<void> }> {
  const socketPath = adminSocketPath(config.dataDir);
  await fs.mkdir(config.dataDir, { recursive: true });
  // A socket file left by a killed server would block listen(); one that answers means another server runs.
  if (await isAnswering(socketPath)) throw new Error(`Another Mailroom server is using ${config.dataDir}`);
  await fs.rm(socketPath, { force: true });

  const server = net.createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', async (chunk) => {
      buffer += chunk;
      if (buffer.length > 64 * 1024) return socket.destroy();
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      const reply = await handle(buffer.slice(0, newline));
      socket.end(JSON.stringify(reply) + '\n');
    });
    socket.on('error', () => socket.destroy());
  });

  async function handle(line: string): Promise<Reply> {
    try {
      const parsed = adminCommandSchema.safeParse(JSON.parse(line));
      if (!parsed.success)
        return { ok: false, code: 'invalid_request_params', message: parsed.error.message };
      return { ok: true, result: await runAdminCommand(db, config, parsed.data, invoicePurposes) };
    } catch (err) {
      if (err instanceof DomainError) return { ok: false, code: err.code, message: err.message };
      return { ok: false, code: 'internal_error', message: err instanceof Error ? err.message : String(err) };
    }
  }

  const oldMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  } finally {
    process.umask(oldMask);
  }
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        void fs.rm(socketPath, { force: true });
      }),
  };
}

function isAnswering(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
