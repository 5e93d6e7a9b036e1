import net from 'node:net';
import path from 'node:path';
import type { AdminCommand, AdminResult } from './commands.js';

/**
 * The CLI's side of the admin socket (admin-socket.ts is the server's): where the socket is, what it answers, and one
 * command sent to it. A module of its own so that `mailroom` loads no more than this to ask a running server; the
 * commands themselves (and the whole server they reach into: 2-3 s of module loading under tsx) are loaded only when
 * the CLI opens the database itself.
 */
export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

export type AdminReply = { ok: true; result: AdminResult } | { ok: false; code: string; message: string };

/** Sends one command to a running server; undefined when no server listens. */
export function sendAdminCommand(dataDir: string, command: AdminCommand): Promise<AdminReply | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(adminSocketPath(dataDir));
    let data = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(JSON.stringify(command) + '\n');
    });
    socket.on('data', (chunk) => (data += chunk));
    socket.once('end', () => {
      try {
        resolve(JSON.parse(data) as AdminReply);
      } catch (err) {
        reject(err);
      }
    });
    socket.once('error', (err) => (connected ? reject(err) : resolve(undefined)));
  });
}
