import { Resolver } from 'node:dns/promises';
import { startDnsServer, TestZone } from '../../../test-support/dns.js';
import { cleanup } from './_util.js';

export { TestZone };

/**
 * The shared test DNS server (test-support/dns.ts) for one test file, closed when it ends: `server` for DNS_SERVERS,
 * `resolver` asking it (mailauth's verifier), `zone` to edit.
 */
export async function startTestDns(): Promise<{ zone: TestZone; server: string; resolver: Resolver }> {
  const dns = await startDnsServer();
  cleanup(() => dns.close());
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([dns.server]);
  return { zone: dns.zone, server: dns.server, resolver };
}
