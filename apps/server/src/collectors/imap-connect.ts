import net from 'node:net';
import tls from 'node:tls';
import type { ErrorCode, ImapSecurity } from '@mailroom/protocol';
import type { ImapFlow } from 'imapflow';
import { DomainError } from '../core/errors.js';
import { DnsLookupError, type AddressPolicy, type DnsResolver } from '../core/net/index.js';

/**
 * Signing in to another IMAP server (a collector's mailbox) by the image proxy's address rules: the host is resolved
 * through the service's DnsResolver (an IP literal is taken as is), every address it has must be one the
 * AddressPolicy permits (public, or allowed by OUTBOUND_ALLOW_PRIVATE) — collector_server_forbidden otherwise — and
 * the connection goes to the very address checked, with the host's name as the TLS server name (SNI and the
 * certificate's check), so nothing between the check and the connection can send it elsewhere.
 *
 * Failures become catalogue codes: a refused login → collector_invalid_password; refused, timed out or dropped →
 * cannot_connect_to_mail_server; a certificate or TLS failure (or a server that does not offer STARTTLS when it is
 * required) → collector_tls_failed; anything else the server says → internal_imap_error.
 */
export interface ImapEndpoint {
  host: string;
  port: number;
  security: ImapSecurity;
}

export interface ImapConnectDeps {
  dns: DnsResolver;
  policy: AddressPolicy;
  /** One deadline for the TCP connection, the TLS handshake and the greeting (default 15 s); commands get 4×. */
  timeoutMs?: number;
  /** Certificates trusted besides the usual roots (an on-premises server's own CA; tests' self-signed Dovecot). */
  ca?: string | Buffer;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Where to connect for a host: its one checked address. DomainError when it has none or one is not permitted. */
export async function resolvePermittedAddress(
  host: string,
  deps: Pick<ImapConnectDeps, 'dns' | 'policy'>,
): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) {
    if (!deps.policy.permitted(bare))
      throw new DomainError('collector_server_forbidden', `${bare} is not a public address`);
    return bare;
  }
  let addresses: string[];
  try {
    addresses = await deps.dns.addresses(bare);
  } catch (err) {
    if (err instanceof DnsLookupError)
      throw new DomainError('cannot_connect_to_mail_server', `${bare}: the name could not be looked up`);
    throw err;
  }
  if (addresses.length === 0)
    throw new DomainError('cannot_connect_to_mail_server', `${bare} has no address`);
  // Every address the name has must be permitted: a server cannot be half inside the network.
  const refused = addresses.find((a) => !deps.policy.permitted(a));
  if (refused !== undefined)
    throw new DomainError('collector_server_forbidden', `${bare} points at ${refused}, not a public address`);
  return addresses[0]!;
}

const trustOf = (deps: ImapConnectDeps) => (deps.ca ? { ca: [...tls.rootCertificates, deps.ca] } : {});

/** Signs in and answers the open session; the caller logs out (or closes) when done. Throws DomainError. */
export async function connectImap(
  endpoint: ImapEndpoint,
  auth: { user: string; pass: string },
  deps: ImapConnectDeps,
): Promise<ImapFlow> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const address = await resolvePermittedAddress(endpoint.host, deps);
  const host = endpoint.host.replace(/^\[|\]$/g, '');
  // The IMAP client is loaded by the first collector that runs (~4 MB of heap a server without collectors never needs).
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: address,
    port: endpoint.port,
    secure: endpoint.security === 'tls',
    // STARTTLS is required when asked for (no silent fall-back to cleartext), never tried when 'none'.
    doSTARTTLS: endpoint.security === 'starttls' ? true : endpoint.security === 'none' ? false : undefined,
    // The server's own name for SNI and the certificate's check, though the socket goes to the checked address.
    ...(net.isIP(host) ? {} : { servername: host }),
    tls: { rejectUnauthorized: true, minVersion: 'TLSv1.2', ...trustOf(deps) },
    auth,
    logger: false,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 4,
    disableAutoIdle: true,
    clientInfo: { name: 'Mailroom' },
  });
  // A socket error after connect() is also emitted as 'error'; unheard, it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    client.close();
    throw new DomainError(imapErrorCode(err), describe(err));
  }
  return client;
}

/**
 * Whether an IMAP server answers at an endpoint (discovery's guesses): a TCP connection (with TLS verified against the
 * host's name on 'tls') to the checked address, an IMAP greeting, and on a plain port whether it offers STARTTLS.
 * Never signs in. Answers null for anything else: refused, silent, not IMAP, a bad certificate, a forbidden address.
 */
export async function probeImap(
  endpoint: Omit<ImapEndpoint, 'security'> & { security: 'tls' | 'plain' },
  deps: ImapConnectDeps,
): Promise<{ starttls: boolean } | null> {
  let address: string;
  try {
    address = await resolvePermittedAddress(endpoint.host, deps);
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
  const host = endpoint.host.replace(/^\[|\]$/g, '');
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve) => {
    const socket =
      endpoint.security === 'tls'
        ? tls.connect({
            host: address,
            port: endpoint.port,
            ...(net.isIP(host) ? {} : { servername: host }),
            rejectUnauthorized: true,
            minVersion: 'TLSv1.2',
            ...trustOf(deps),
          })
        : net.connect({ host: address, port: endpoint.port });
    let text = '';
    let asked = false;
    let settled = false;
    const done = (result: { starttls: boolean } | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.setEncoding('latin1');
    socket.on('error', () => done(null));
    socket.on('close', () => done(null));
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 16_384) return done(null);
      const lines = text.split('\r\n');
      const greeting = lines[0] ?? '';
      if (lines.length < 2) return;
      if (!/^\* (OK|PREAUTH)\b/i.test(greeting)) return done(null);
      if (endpoint.security === 'tls') return done({ starttls: false });
      if (/\bSTARTTLS\b/i.test(greeting)) return done({ starttls: true });
      // The greeting did not list the capabilities: ask for them.
      if (!asked) {
        asked = true;
        socket.write('p0 CAPABILITY\r\n');
        return;
      }
      const tagged = lines.find((l) => /^p0 /i.test(l));
      if (tagged === undefined) return;
      const capabilities = lines.filter((l) => /^\* CAPABILITY /i.test(l)).join(' ');
      done({ starttls: /^p0 OK/i.test(tagged) && /\bSTARTTLS\b/i.test(capabilities) });
    });
  });
}

const tlsCodes = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'STARTTLS_INJECTION',
]);

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ETIMEDOUT',
  'EPIPE',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
  'NoConnection',
  'EConnectionClosed',
  'ClosedAfterConnectText',
  'ClosedAfterConnectTLS',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
  'UPGRADE_TIMEOUT',
  'ETIMEOUT',
  'StateLogout',
]);

interface ImapFailure {
  code?: unknown;
  authenticationFailed?: boolean;
  tlsFailed?: boolean;
  serverResponseCode?: unknown;
  responseStatus?: unknown;
  message?: unknown;
}

/**
 * The catalogue code of an IMAP failure, at sign-in or later in a session (a DomainError keeps its own code).
 */
export function imapErrorCode(err: unknown): ErrorCode {
  if (err instanceof DomainError) return err.code;
  if (typeof err !== 'object' || err === null) return 'internal_imap_error';
  const e = err as ImapFailure;
  const code = typeof e.code === 'string' ? e.code : '';
  // RFC 5530: the server cannot serve now (try later), or is broken — not the password's fault.
  if (e.serverResponseCode === 'UNAVAILABLE') return 'cannot_connect_to_mail_server';
  if (e.serverResponseCode === 'SERVERBUG') return 'internal_imap_error';
  if (e.authenticationFailed) {
    // The server's refusal of the user and password, not a login the client could not even try.
    const message = typeof e.message === 'string' ? e.message : '';
    if (/^(No matching authentication method|Login is disabled)$/.test(message)) return 'internal_imap_error';
    return 'collector_invalid_password';
  }
  if (e.serverResponseCode === 'AUTHENTICATIONFAILED' || e.serverResponseCode === 'AUTHORIZATIONFAILED')
    return 'collector_invalid_password';
  if (tlsCodes.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || e.tlsFailed)
    return 'collector_tls_failed';
  if (connectionCodes.has(code)) return 'cannot_connect_to_mail_server';
  return 'internal_imap_error';
}

function describe(err: unknown): string | undefined {
  const e = err as ImapFailure;
  const code = imapErrorCode(err);
  // The catalogue's message says it; the server's (or TLS's) own words help with the rest.
  if (code !== 'internal_imap_error' && code !== 'collector_tls_failed') return undefined;
  const text = typeof e?.message === 'string' ? e.message : '';
  return text || undefined;
}
