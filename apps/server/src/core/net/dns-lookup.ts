import { Resolver } from 'node:dns/promises';

/**
 * A DNS question as `dns.promises.resolve(name, rrtype)` answers it, Node's error codes kept (ENOTFOUND, ENODATA for
 * "none", anything else a failure): the form mailauth's SPF, DKIM, DMARC and ARC checks ask in.
 */
export type DnsLookup = (name: string, rrtype: string) => Promise<unknown[]>;

export interface DnsLookupOptions {
  /** One query's time, each of its two tries (default 2 s). */
  timeoutMs?: number;
  /** How long an answer, or a "none", is kept (default 60 s; 0: nothing is kept). */
  cacheMs?: number;
  /** How many answers are kept at most; the least recently asked go first (default 10,000). */
  maxEntries?: number;
  now?: () => number;
}

type Kept = { until: number; answer: unknown[] } | { until: number; absent: NodeJS.ErrnoException };

const absent = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);
/** Answers bigger than this are asked again rather than kept (a hostile zone's huge TXT records). */
const MAX_KEPT_BYTES = 16_384;

/**
 * DNS for checking incoming mail: through DNS_SERVERS when set, else the system's, with a small cache of answers and
 * "no such name" (a message's checks ask the same names again and again: the sender's SPF, its DKIM key, its DMARC
 * record), bounded in entries and in the size of an answer kept. The same question asked twice at once is asked
 * once. Failures (SERVFAIL, a timeout) are never kept: the next message asks again.
 */
export function openDnsLookup(servers: readonly string[], options: DnsLookupOptions = {}): DnsLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  const cacheMs = options.cacheMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const kept = new Map<string, Kept>();
  const asking = new Map<string, Promise<unknown[]>>();

  const keep = (key: string, entry: Kept) => {
    if (cacheMs <= 0) return;
    kept.delete(key);
    kept.set(key, entry);
    while (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
  };

  return (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const found = kept.get(key);
    if (found && found.until > now()) {
      // Most recently asked last: the oldest are dropped first.
      kept.delete(key);
      kept.set(key, found);
      return 'absent' in found ? Promise.reject(found.absent) : Promise.resolve(found.answer);
    }
    const inFlight = asking.get(key);
    if (inFlight) return inFlight;
    const question = (resolver.resolve(name, rrtype) as Promise<unknown[]>).then(
      (answer) => {
        if (JSON.stringify(answer).length <= MAX_KEPT_BYTES) keep(key, { until: now() + cacheMs, answer });
        return answer;
      },
      (err: NodeJS.ErrnoException) => {
        if (err.code && absent.has(err.code)) keep(key, { until: now() + cacheMs, absent: err });
        throw err;
      },
    );
    asking.set(key, question);
    void question.then(
      () => asking.delete(key),
      () => asking.delete(key),
    );
    return question;
  };
}
