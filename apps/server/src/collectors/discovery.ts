import { domainToASCII } from 'node:url';
import { Parser } from 'htmlparser2';
import { isEmail, type FindImapResponse, type ImapServer } from '@mailroom/protocol';
import { DomainError } from '../core/errors.js';
import {
  DnsLookupError,
  fetchPublicPage,
  PageFetchError,
  type AddressPolicy,
  type DnsResolver,
} from '../core/net/index.js';
import { probeImap } from './imap-connect.js';
import { providerForDomain, providerForMx, providerView } from './providers.js';

/**
 * find_imap (issue 18): the IMAP server of an address, found the way mail programs find it, in this order —
 *  1. the bundled provider table, by the address's domain (Gmail, Yandex, Mail.ru, Outlook…);
 *  2. the provider hosting the domain, by its MX hosts (a domain whose MX is aspmx.l.google.com is Gmail's);
 *  3. RFC 6186 SRV records: `_imaps._tcp.<domain>` (implicit TLS), then `_imap._tcp.<domain>` (STARTTLS);
 *  4. the domain's autoconfig document (`https://autoconfig.<domain>/mail/config-v1.1.xml`, then
 *     `https://<domain>/.well-known/autoconfig/mail/config-v1.1.xml`), fetched by the outbound address rules;
 *  5. guesses: `imap.<domain>`, then `mail.<domain>`, each on 993 (TLS) and 143 (STARTTLS, or plain if that is all it
 *     offers), kept only when a probe gets an IMAP greeting from a permitted address.
 * mail_server_not_found when nothing answers; collector_invalid_email for a bad address.
 */
export interface DiscoveryDeps {
  dns: DnsResolver;
  policy: AddressPolicy;
  /** Per fetch of an autoconfig document and per probe (default 5 s). */
  timeoutMs?: number;
  /**
   * Where autoconfig documents are looked for, `{domain}` and `{email}` standing for the address's (URL-encoded);
   * default the two of the autoconfig convention. Tests point them at a loopback site.
   */
  autoconfigUrls?: readonly string[];
  /** The ports guesses are probed on (default 993 with TLS, 143 plain). Tests point them at a loopback server. */
  guessPorts?: { tls: number; plain: number };
  /** Certificates trusted besides the usual roots (see ImapConnectDeps). */
  ca?: string | Buffer;
}

export const DEFAULT_AUTOCONFIG_URLS = [
  'https://autoconfig.{domain}/mail/config-v1.1.xml?emailaddress={email}',
  'https://{domain}/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress={email}',
] as const;

const AUTOCONFIG_MAX_BYTES = 64 * 1024;
const USER_AGENT = 'Mailroom collectors (autoconfig)';

/** The address's domain in ASCII (IDN as punycode), lowercased; DomainError collector_invalid_email. */
export function collectorDomainOf(email: string): string {
  const address = email.trim();
  if (!isEmail(address)) throw new DomainError('collector_invalid_email');
  const domain = domainToASCII(address.slice(address.lastIndexOf('@') + 1).toLowerCase());
  if (!domain) throw new DomainError('collector_invalid_email');
  return domain;
}

export async function findImap(email: string, deps: DiscoveryDeps): Promise<FindImapResponse> {
  const domain = collectorDomainOf(email);
  const address = email.trim();

  const known = providerForDomain(domain);
  if (known) return { server: known.server, source: 'provider', provider: providerView(known) };

  const hosted = providerForMx(await orEmpty(deps.dns.mx(domain)));
  if (hosted) return { server: hosted.server, source: 'provider', provider: providerView(hosted) };

  const bySrv = await fromSrv(domain, deps);
  if (bySrv) return { server: bySrv, source: 'srv', provider: null };

  const byAutoconfig = await fromAutoconfig(domain, address, deps);
  if (byAutoconfig) return { server: byAutoconfig, source: 'autoconfig', provider: null };

  const guessed = await fromGuess(domain, deps);
  if (guessed) return { server: guessed, source: 'guess', provider: null };

  throw new DomainError('mail_server_not_found');
}

/** A resolver that fails is one step less to go on, not the end of discovery. */
async function orEmpty<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (err) {
    if (err instanceof DnsLookupError) return [];
    throw err;
  }
}

async function fromSrv(domain: string, deps: DiscoveryDeps): Promise<ImapServer | null> {
  for (const [service, security] of [
    ['_imaps._tcp', 'tls'],
    ['_imap._tcp', 'starttls'],
  ] as const) {
    const records = await orEmpty(deps.dns.srv(`${service}.${domain}`));
    // RFC 2782: a sole record with target "." says the service is decidedly not offered.
    const usable = records.filter((r) => r.target !== '.' && r.port > 0 && isHostName(r.target));
    const [best] = usable;
    if (best) return { host: best.target, port: best.port, security };
  }
  return null;
}

async function fromAutoconfig(
  domain: string,
  email: string,
  deps: DiscoveryDeps,
): Promise<ImapServer | null> {
  for (const template of deps.autoconfigUrls ?? DEFAULT_AUTOCONFIG_URLS) {
    const url = template.replaceAll('{domain}', domain).replaceAll('{email}', encodeURIComponent(email));
    let body: string;
    try {
      const page = await fetchPublicPage(url, {
        resolver: deps.dns,
        policy: deps.policy,
        timeoutMs: deps.timeoutMs ?? 5000,
        maxBytes: AUTOCONFIG_MAX_BYTES,
        maxRedirects: 3,
        userAgent: USER_AGENT,
      });
      if (page.truncated) continue;
      body = page.body;
    } catch (err) {
      if (err instanceof PageFetchError) continue;
      throw err;
    }
    const server = imapServerInAutoconfig(body, domain, email);
    if (server) return server;
  }
  return null;
}

interface IncomingServer {
  type: string;
  hostname: string;
  port: string;
  socketType: string;
}

/**
 * The best IMAP server of an autoconfig document (Thunderbird's clientConfig v1.1): an `incomingServer type="imap"`,
 * implicit TLS (socketType SSL) before STARTTLS before plain; %EMAILDOMAIN% and the like filled in. Null when it has
 * none that makes sense.
 */
export function imapServerInAutoconfig(xml: string, domain: string, email: string): ImapServer | null {
  const servers: IncomingServer[] = [];
  let current: IncomingServer | null = null;
  let field: keyof IncomingServer | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const tag = name.toLowerCase();
        if (tag === 'incomingserver') {
          current = { type: (attributes.type ?? '').toLowerCase(), hostname: '', port: '', socketType: '' };
          field = null;
        } else if (current) {
          field =
            tag === 'hostname'
              ? 'hostname'
              : tag === 'port'
                ? 'port'
                : tag === 'sockettype'
                  ? 'socketType'
                  : null;
        }
      },
      ontext(text) {
        if (current && field) current[field] += text;
      },
      onclosetag(name) {
        const tag = name.toLowerCase();
        if (tag === 'incomingserver' && current) {
          servers.push(current);
          current = null;
        }
        field = null;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();

  const local = email.slice(0, email.lastIndexOf('@'));
  const fill = (value: string) =>
    value
      .trim()
      .replaceAll('%EMAILDOMAIN%', domain)
      .replaceAll('%EMAILLOCALPART%', local)
      .replaceAll('%EMAILADDRESS%', email)
      .toLowerCase()
      .replace(/\.$/, '');
  const securityOf = { ssl: 'tls', tls: 'tls', starttls: 'starttls', plain: 'none' } as const;
  const candidates: ImapServer[] = [];
  for (const s of servers) {
    if (s.type !== 'imap') continue;
    const host = fill(s.hostname);
    const port = Number(s.port.trim());
    const security = securityOf[s.socketType.trim().toLowerCase() as keyof typeof securityOf];
    if (!isHostName(host) || !Number.isInteger(port) || port < 1 || port > 65535 || !security) continue;
    candidates.push({ host, port, security });
  }
  const rank = { tls: 0, starttls: 1, none: 2 } as const;
  candidates.sort((a, b) => rank[a.security] - rank[b.security]);
  return candidates[0] ?? null;
}

async function fromGuess(domain: string, deps: DiscoveryDeps): Promise<ImapServer | null> {
  const ports = deps.guessPorts ?? { tls: 993, plain: 143 };
  const probeDeps = { ...deps, timeoutMs: deps.timeoutMs ?? 5000 };
  const attempts = [`imap.${domain}`, `mail.${domain}`].flatMap((host) => [
    { host, port: ports.tls, security: 'tls' as const },
    { host, port: ports.plain, security: 'plain' as const },
  ]);
  // All at once (a silent host costs one timeout, not four), then the first that answered in this order.
  const answers = await Promise.all(attempts.map((a) => probeImap(a, probeDeps)));
  for (const [i, attempt] of attempts.entries()) {
    const answer = answers[i];
    if (!answer) continue;
    const security = attempt.security === 'tls' ? 'tls' : answer.starttls ? 'starttls' : 'none';
    return { host: attempt.host, port: attempt.port, security };
  }
  return null;
}

const hostLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A DNS host name of at least two labels (what an SRV target or an autoconfig hostname may be). */
function isHostName(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((l) => hostLabel.test(l));
}
