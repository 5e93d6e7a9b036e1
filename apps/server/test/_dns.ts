import { createRequire } from 'node:module';
import { Resolver } from 'node:dns/promises';
import { freePort } from '../../../test-support/ports.js';
import { cleanup } from './_util.js';

/**
 * A DNS server of the test's own on loopback (dns2, UDP and TCP on one port), answering from a zone the test edits:
 * DNS_SERVERS points the app at it, mailauth's verifier asks it too. A name without records answers NOERROR with no
 * data (the resolver's "no such record"); a name marked failing answers SERVFAIL.
 */
interface Dns2Packet {
  questions: { name: string; type: number }[];
  answers: unknown[];
  header: { rcode: number };
}
interface Dns2 {
  createServer(options: {
    udp?: boolean;
    tcp?: boolean;
    handle(request: Dns2Packet, send: (response: Dns2Packet) => void): void;
  }): {
    listen(options: {
      udp?: { port: number; address: string };
      tcp?: { port: number; address: string };
    }): Promise<unknown>;
    close(): Promise<void>;
  };
  Packet: {
    TYPE: Record<'A' | 'AAAA' | 'MX' | 'TXT' | 'SRV', number>;
    CLASS: { IN: number };
    createResponseFromRequest(request: Dns2Packet): Dns2Packet;
  };
}
const dns2 = createRequire(import.meta.url)('dns2') as Dns2;
const { Packet } = dns2;

type RecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'SRV';
/**
 * TXT: the strings of one record (a string alone is one string); MX: "priority host"; SRV: "priority weight port
 * target"; A/AAAA: an address.
 */
type Value = string | string[];

export class TestZone {
  private readonly records = new Map<string, Value[]>();
  private readonly failing = new Set<string>();
  private key = (name: string, type: RecordType) => `${type} ${name.toLowerCase().replace(/\.$/, '')}`;

  set(name: string, type: RecordType, values: Value[]): void {
    this.records.set(this.key(name, type), values);
  }
  add(name: string, type: RecordType, value: Value): void {
    this.records.set(this.key(name, type), [...(this.records.get(this.key(name, type)) ?? []), value]);
  }
  delete(name: string, type: RecordType): void {
    this.records.delete(this.key(name, type));
  }
  fail(name: string): void {
    this.failing.add(name.toLowerCase());
  }
  answer(request: Dns2Packet): Dns2Packet {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (!question) return response;
    if (this.failing.has(question.name.toLowerCase())) {
      response.header.rcode = 2;
      return response;
    }
    const type = (Object.keys(Packet.TYPE) as RecordType[]).find((t) => Packet.TYPE[t] === question.type);
    if (!type) return response;
    for (const value of this.records.get(this.key(question.name, type)) ?? []) {
      const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 60 };
      if (type === 'TXT') response.answers.push({ ...base, data: value });
      else if (type === 'MX') {
        const [priority, exchange] = String(value).split(' ');
        response.answers.push({ ...base, priority: Number(priority), exchange });
      } else if (type === 'SRV') {
        const [priority, weight, port, target] = String(value).split(' ');
        response.answers.push({
          ...base,
          priority: Number(priority),
          weight: Number(weight),
          port: Number(port),
          target,
        });
      } else response.answers.push({ ...base, address: value });
    }
    return response;
  }
}

export async function startTestDns(): Promise<{ zone: TestZone; server: string; resolver: Resolver }> {
  const zone = new TestZone();
  const port = await freePort();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => send(zone.answer(request)),
  });
  await server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } });
  cleanup(() => server.close());
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return { zone, server: `127.0.0.1:${port}`, resolver };
}
