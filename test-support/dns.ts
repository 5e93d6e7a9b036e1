import { createRequire } from 'node:module';
import { freePort } from './ports.js';

/**
 * A DNS server of the tests' own on loopback (dns2, UDP and TCP on one port), answering from a zone the test edits:
 * DNS_SERVERS points the app at it, and a test's own resolver (mailauth's verifier, node's Resolver) asks it too. A
 * name without records answers NOERROR with no data (the resolver's "no such record"); a name marked failing
 * answers SERVFAIL. The server tests (apps/server/test/_dns.ts, _mx-dns.ts) and the e2e files use this one.
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
    TYPE: Record<RecordType, number>;
    CLASS: { IN: number };
    createResponseFromRequest(request: Dns2Packet): Dns2Packet;
  };
}
const dns2 = createRequire(import.meta.url)('dns2') as Dns2;
const { Packet } = dns2;

export type RecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'SRV';
/**
 * TXT: the strings of one record (a string alone is one string); MX: "priority host"; SRV: "priority weight port
 * target"; A/AAAA: an address.
 */
export type RecordValue = string | string[];

export class TestZone {
  private readonly records = new Map<string, RecordValue[]>();
  private readonly failing = new Set<string>();
  private key = (name: string, type: RecordType) => `${type} ${name.toLowerCase().replace(/\.$/, '')}`;

  set(name: string, type: RecordType, values: RecordValue[]): void {
    this.records.set(this.key(name, type), values);
  }
  add(name: string, type: RecordType, value: RecordValue): void {
    this.records.set(this.key(name, type), [...(this.records.get(this.key(name, type)) ?? []), value]);
  }
  delete(name: string, type: RecordType): void {
    this.records.delete(this.key(name, type));
  }
  /** The records of a name and type as set (none: undefined). */
  get(name: string, type: RecordType): RecordValue[] | undefined {
    return this.records.get(this.key(name, type));
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

export interface TestDnsServer {
  zone: TestZone;
  port: number;
  /** `127.0.0.1:<port>`, for DNS_SERVERS and Resolver.setServers. */
  server: string;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port; the caller closes it (its test runner's cleanup). */
export async function startDnsServer(zone = new TestZone()): Promise<TestDnsServer> {
  const port = await freePort();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => send(zone.answer(request)),
  });
  await server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } });
  return { zone, port, server: `127.0.0.1:${port}`, close: () => server.close() };
}
