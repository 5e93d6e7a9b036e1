import { Resolver } from 'node:dns/promises';

/**
 * DNS as the service asks it (domain verification, DNS health, the MX check of an address, collectors' discovery):
 * through DNS_SERVERS when set (tests run their own server on loopback), else the system's resolvers. An answer of
 * "no such name" or "no such record" is an empty list, never an error; a resolver that fails throws DnsLookupError.
 */
export interface DnsResolver {
  /** Each TXT record of the name, its strings joined (RFC 7208 §3.3). */
  txt(name: string): Promise<string[]>;
  /** The MX hosts of the name, lowercased without the final dot, by preference. */
  mx(name: string): Promise<string[]>;
  /** The IPv4 and IPv6 addresses of the name (A, then AAAA): where a site of the name is reached. */
  addresses(name: string): Promise<string[]>;
  /**
   * The SRV records of the name (RFC 2782), by priority, then weight (heaviest first); targets lowercased without the
   * final dot ("." — the service is not offered there — stays ".").
   */
  srv(name: string): Promise<SrvRecord[]>;
}

export interface SrvRecord {
  priority: number;
  weight: number;
  port: number;
  target: string;
}

export class DnsLookupError extends Error {
  constructor(
    readonly host: string,
    readonly code: string,
  ) {
    super(`DNS lookup of ${host} failed: ${code}`);
  }
}

const absent = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

/** `servers`: "host" or "host:port" entries (DNS_SERVERS); empty: the system's. */
export function openDnsResolver(servers: readonly string[], timeoutMs = 5000): DnsResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  const ask = async <T>(name: string, query: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await query();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (absent.has(code)) return [];
      throw new DnsLookupError(name, code);
    }
  };
  return {
    txt: async (name) => (await ask(name, () => resolver.resolveTxt(name))).map((parts) => parts.join('')),
    mx: async (name) =>
      (await ask(name, () => resolver.resolveMx(name)))
        .sort((a, b) => a.priority - b.priority)
        .map((r) => r.exchange.toLowerCase().replace(/\.$/, '')),
    addresses: async (name) => {
      const [v4, v6] = await Promise.all([
        ask(name, () => resolver.resolve4(name)),
        ask(name, () => resolver.resolve6(name)),
      ]);
      return [...v4, ...v6];
    },
    srv: async (name) =>
      (await ask(name, () => resolver.resolveSrv(name)))
        .map((r) => ({
          priority: r.priority,
          weight: r.weight,
          port: r.port,
          target: r.name === '' || r.name === '.' ? '.' : r.name.toLowerCase().replace(/\.$/, ''),
        }))
        .sort((a, b) => a.priority - b.priority || b.weight - a.weight),
  };
}
