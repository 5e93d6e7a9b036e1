import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot } from '../../../../test-support/dovecot.js';
import { freePort } from '../../../../test-support/ports.js';
import { connectImap, imapErrorCode, type ImapConnectDeps } from '../../src/collectors/imap-connect.js';
import { AddressPolicy, openDnsResolver } from '../../src/core/net/index.js';
import { DomainError } from '../../src/core/errors.js';
import { startTestDns, type TestZone } from '../_dns.js';
import { cleanup } from '../_util.js';

/**
 * Signing in to a collector's server (issue 18): a real Dovecot on loopback, the test's own DNS, and the address
 * policy that allows only the loopback address the test names.
 */
let dovecot: Dovecot;
let zone: TestZone;
let deps: ImapConnectDeps;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [{ user: 'ivan', password: 'right-password' }], tls: true });
  const dns = await startTestDns();
  zone = dns.zone;
  zone.set('imap.example.test', 'A', ['127.0.0.1']);
  zone.set('inside.example.test', 'A', ['127.0.0.2']);
  zone.set('half.example.test', 'A', ['127.0.0.1', '127.0.0.2']);
  deps = { dns: openDnsResolver([dns.server]), policy: new AddressPolicy(['127.0.0.1']), timeoutMs: 3000 };
}, 120_000);
afterAll(() => dovecot?.stop());

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

/** A loopback TCP server of the test's that does `onConnection` with each connection. */
async function rawServer(onConnection: (socket: net.Socket) => void): Promise<number> {
  const port = await freePort();
  const server = net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanup(() => new Promise((resolve) => server.close(resolve)));
  return port;
}

describe('connectImap', () => {
  it('signs in with the right password, by the server name resolved through DNS', async () => {
    const client = await connectImap(
      { host: 'imap.example.test', port: dovecot.port, security: 'none' },
      { user: 'ivan', pass: 'right-password' },
      deps,
    );
    expect(client.authenticated).toBe(true);
    const inbox = await client.status('INBOX', { messages: true });
    expect(inbox && inbox.messages).toBe(0);
    await client.logout();
  });

  it('answers collector_invalid_password for a wrong password', async () => {
    const err = await failure(
      connectImap(
        { host: 'imap.example.test', port: dovecot.port, security: 'none' },
        { user: 'ivan', pass: 'wrong' },
        deps,
      ),
    );
    expect(err.code).toBe('collector_invalid_password');
  });

  it('refuses a loopback address the policy does not allow, as an IP and through a name', async () => {
    const strict = { ...deps, policy: new AddressPolicy([]) };
    for (const host of ['127.0.0.1', 'imap.example.test']) {
      const err = await failure(
        connectImap(
          { host, port: dovecot.port, security: 'none' },
          { user: 'ivan', pass: 'right-password' },
          strict,
        ),
      );
      expect(err.code).toBe('collector_server_forbidden');
    }
    // A name that resolves to an address outside the allowed one, or to one inside and one outside.
    for (const host of ['inside.example.test', 'half.example.test']) {
      const err = await failure(
        connectImap(
          { host, port: dovecot.port, security: 'none' },
          { user: 'ivan', pass: 'right-password' },
          deps,
        ),
      );
      expect(err.code).toBe('collector_server_forbidden');
    }
  });

  it('answers collector_tls_failed for a self-signed certificate, with implicit TLS and with STARTTLS', async () => {
    const tls = await failure(
      connectImap(
        { host: 'imap.example.test', port: dovecot.tlsPort!, security: 'tls' },
        { user: 'ivan', pass: 'right-password' },
        deps,
      ),
    );
    expect(tls.code).toBe('collector_tls_failed');
    const starttls = await failure(
      connectImap(
        { host: 'imap.example.test', port: dovecot.port, security: 'starttls' },
        { user: 'ivan', pass: 'right-password' },
        deps,
      ),
    );
    expect(starttls.code).toBe('collector_tls_failed');
  });

  it('answers collector_tls_failed when STARTTLS is required and the server does not offer it', async () => {
    const port = await rawServer((socket) => {
      socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n');
      socket.on('data', (data) => {
        const tag = data.toString().split(' ')[0];
        socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n${tag} OK done\r\n`);
      });
    });
    const err = await failure(
      connectImap(
        { host: '127.0.0.1', port, security: 'starttls' },
        { user: 'ivan', pass: 'right-password' },
        deps,
      ),
    );
    expect(err.code).toBe('collector_tls_failed');
  });

  it('answers cannot_connect_to_mail_server when nothing listens, the server drops the connection, or is silent', async () => {
    const closed = await freePort();
    const dropping = await rawServer((socket) => socket.destroy());
    const silent = await rawServer(() => undefined);
    for (const port of [closed, dropping, silent]) {
      const err = await failure(
        connectImap(
          { host: '127.0.0.1', port, security: 'none' },
          { user: 'ivan', pass: 'right-password' },
          { ...deps, timeoutMs: 500 },
        ),
      );
      expect(err.code).toBe('cannot_connect_to_mail_server');
    }
    // A name with no address at all.
    const err = await failure(
      connectImap(
        { host: 'nowhere.example.test', port: dovecot.port, security: 'none' },
        { user: 'ivan', pass: 'right-password' },
        deps,
      ),
    );
    expect(err.code).toBe('cannot_connect_to_mail_server');
  });

  it('answers cannot_connect_to_mail_server when the server drops the connection later in the session', async () => {
    const port = await rawServer((socket) => {
      socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n');
      socket.on('data', (data) => {
        const [tag, command] = data.toString().split(' ');
        if (/^CAPABILITY/i.test(command ?? '')) socket.write(`* CAPABILITY IMAP4rev1\r\n${tag} OK done\r\n`);
        else if (/^(SELECT|EXAMINE)/i.test(command ?? '')) socket.destroy();
        else socket.write(`${tag} OK done\r\n`);
      });
    });
    const client = await connectImap(
      { host: '127.0.0.1', port, security: 'none' },
      { user: 'ivan', pass: 'right-password' },
      deps,
    );
    const err = await client.mailboxOpen('INBOX').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(imapErrorCode(err)).toBe('cannot_connect_to_mail_server');
    client.close();
  });

  it('answers internal_imap_error when the server fails the sign-in with an error of its own', async () => {
    const port = await rawServer((socket) => {
      socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n');
      socket.on('data', (data) => {
        const [tag, command] = data.toString().split(' ');
        if (/^CAPABILITY/i.test(command ?? '')) socket.write(`* CAPABILITY IMAP4rev1\r\n${tag} OK done\r\n`);
        else socket.write(`${tag} BAD [SERVERBUG] Internal error occurred\r\n`);
      });
    });
    const err = await failure(
      connectImap(
        { host: '127.0.0.1', port, security: 'none' },
        { user: 'ivan', pass: 'right-password' },
        { ...deps, timeoutMs: 1000 },
      ),
    );
    expect(err.code).toBe('internal_imap_error');
  });
});
