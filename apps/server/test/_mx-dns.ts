import dns2 from 'dns2';
import { cleanup } from './_util.js';

const { Packet } = dns2;

/**
 * A DNS server of our own on loopback (UDP), answering MX queries from a table the test fills; every other name and
 * type: no records. The app asks it through DNS_SERVERS=`127.0.0.1:<port>`.
 */
export async function startMxDns(): Promise<{ server: string; mx: Map<string, string[]> }> {
  const mx = new Map<string, string[]>();
  const dns = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (question && question.type === Packet.TYPE.MX) {
        (mx.get(question.name.toLowerCase()) ?? []).forEach((exchange, i) =>
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.MX,
            class: Packet.CLASS.IN,
            ttl: 60,
            exchange,
            priority: 10 * (i + 1),
          }),
        );
      }
      send(response);
    },
  });
  const listening = await dns.listen({ udp: { port: 0, address: '127.0.0.1' } });
  cleanup(() => dns.close());
  return { server: `127.0.0.1:${listening.udp.port}`, mx };
}
