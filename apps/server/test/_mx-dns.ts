import { startDnsServer } from '../../../test-support/dns.js';
import { cleanup } from './_util.js';

/**
 * The shared test DNS server (test-support/dns.ts) as the address tests use it: MX records from a table the test
 * fills (`mx.set(domain, [host, …])`, priorities 10, 20, …); every other name and type: no records. The app asks it
 * through DNS_SERVERS=`127.0.0.1:<port>`.
 */
export async function startMxDns(): Promise<{
  server: string;
  mx: { set(name: string, hosts: string[]): void };
}> {
  const dns = await startDnsServer();
  cleanup(() => dns.close());
  const mx = {
    set: (name: string, hosts: string[]) =>
      dns.zone.set(
        name,
        'MX',
        hosts.map((host, i) => `${10 * (i + 1)} ${host}`),
      ),
  };
  return { server: dns.server, mx };
}
