import dgram from 'node:dgram';
import * as dnsPacket from 'dns-packet';

/**
 * A small authoritative DNS server for tests, on UDP 127.0.0.1 (port chosen by the system), answering from
 * a fixed zone. `slow.example.test` is never answered (for timeouts); unknown names get NXDOMAIN.
 */
export const ZONE: Record<string, dnsPacket.Answer[]> = {
  'example.test/A': [
    { type: 'A', name: 'example.test', ttl: 300, data: '192.0.2.10' },
    { type: 'A', name: 'example.test', ttl: 300, data: '192.0.2.11' },
  ],
  'example.test/AAAA': [{ type: 'AAAA', name: 'example.test', ttl: 300, data: '2001:db8::10' }],
  'www.example.test/CNAME': [{ type: 'CNAME', name: 'www.example.test', ttl: 300, data: 'example.test' }],
  'example.test/MX': [
    { type: 'MX', name: 'example.test', ttl: 300, data: { preference: 10, exchange: 'mail.example.test' } },
    { type: 'MX', name: 'example.test', ttl: 300, data: { preference: 20, exchange: 'backup.example.test' } },
  ],
  'example.test/TXT': [
    { type: 'TXT', name: 'example.test', ttl: 300, data: 'v=spf1 -all' },
    { type: 'TXT', name: 'example.test', ttl: 300, data: ['part one, ', 'part two'] },
  ],
  '10.2.0.192.in-addr.arpa/PTR': [{ type: 'PTR', name: '10.2.0.192.in-addr.arpa', ttl: 300, data: 'example.test' }],
  '_sip._tcp.example.test/SRV': [{ type: 'SRV', name: '_sip._tcp.example.test', ttl: 300, data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.test' } }],
  'example.test/NS': [
    { type: 'NS', name: 'example.test', ttl: 300, data: 'ns1.example.test' },
    { type: 'NS', name: 'example.test', ttl: 300, data: 'ns2.example.test' },
  ],
};

const NXDOMAIN = 3;

export interface DnsServer {
  port: number;
  /** Queries received, as "name/TYPE". */
  queries: string[];
  close(): Promise<void>;
}

/** Serves `zone` (default: the example.test zone above). */
export async function startDnsServer(zone: Record<string, dnsPacket.Answer[]> = ZONE): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (message, remote) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const key = `${question.name.toLowerCase()}/${question.type}`;
    queries.push(key);
    if (question.name === 'slow.example.test') return;
    const answers = zone[key];
    const knownName = Object.keys(zone).some((entry) => entry.startsWith(`${question.name.toLowerCase()}/`));
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (answers || knownName ? 0 : NXDOMAIN),
      questions: query.questions ?? [],
      answers: answers ?? [],
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    port: socket.address().port,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
