/**
 * Loopback ports for what starts the real server as a child process — the server's tests (apps/server/test), the
 * end-to-end tests (apps/web/e2e) and the benchmarks (bench): a free port to give it, and the wait until it listens.
 */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A loopback port with nothing listening on it (yet). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Whether something accepts connections on the loopback port now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A child killed by a signal has signalCode set and exitCode null. */
export const hasExited = (child: Pick<ChildProcess, 'exitCode' | 'signalCode'>) =>
  child.exitCode !== null || child.signalCode !== null;

/** Waits until the loopback port accepts connections; fails as soon as `child` exits, or after `timeoutMs`. */
export async function waitForPort(
  port: number,
  child: Pick<ChildProcess, 'exitCode' | 'signalCode'>,
  timeoutMs = 100_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (hasExited(child)) throw new Error(`server exited (${child.exitCode ?? child.signalCode})`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}
