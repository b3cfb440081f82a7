import { lookup, Resolver } from 'node:dns/promises';
import net from 'node:net';
import { z } from 'zod';
import { codeOf, messageOf } from '../../../platform/errors';
import { defineCheckType } from '../define';

const QUERY_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'PTR', 'SRV', 'NS'] as const;
type QueryType = (typeof QUERY_TYPES)[number];
/** canary-checker's default, in seconds. */
const DEFAULT_TIMEOUT_S = 10;

const schema = z
  .object({
    query: z.string({ message: 'is required' }).trim().min(1, 'is required'),
    querytype: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(QUERY_TYPES, { message: `must be one of ${QUERY_TYPES.join(', ')}` }))
      .optional(),
    server: z
      .string()
      .trim()
      .regex(/^(\[[^\]]+\]|[^:\s]+)(:\d{1,5})?$|^[0-9a-fA-F:]+$/, 'must be a host or host:port, e.g. 1.1.1.1 or 10.0.0.2:5353')
      .optional(),
    port: z.number().int().min(1).max(65535).optional(),
    minrecords: z.number().int().nonnegative().optional(),
    exactreply: z.array(z.string()).optional(),
    timeout: z.number().int().positive().optional(),
    thresholdMillis: z.number().int().positive().optional(),
  })
  .loose();

type DnsSpec = z.infer<typeof schema>;

/** The server as host and port: `server` may carry its port (host:port, [v6]:port), else `port`, else 53. */
function serverOf(spec: DnsSpec): { host: string; port: number } | undefined {
  if (!spec.server) return undefined;
  if (net.isIPv6(spec.server)) return { host: spec.server, port: spec.port ?? 53 };
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(spec.server);
  const host = (match?.[1] ?? spec.server).replace(/^\[|\]$/g, '');
  return { host, port: match?.[2] ? Number(match[2]) : (spec.port ?? 53) };
}

function describeServer(server: { host: string; port: number } | undefined): string {
  if (!server) return 'the system resolver';
  return net.isIPv6(server.host) ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

/** The answer of one query: the records as compared with exactreply, and as the server gave them. */
async function ask(resolver: Resolver, type: QueryType, query: string): Promise<{ records: string[]; results: unknown[] }> {
  switch (type) {
    case 'A': {
      const answers = await resolver.resolve4(query, { ttl: true });
      return { records: answers.map((item) => item.address), results: answers };
    }
    case 'AAAA': {
      const answers = await resolver.resolve6(query, { ttl: true });
      return { records: answers.map((item) => item.address), results: answers };
    }
    case 'CNAME': {
      // As Go's LookupCNAME (canary-checker): a name without a CNAME record is its own canonical name.
      const answers = await resolver.resolveCname(query).catch(async (error: unknown) => {
        if (codeOf(error) !== 'ENODATA') throw error;
        const addresses = await resolver.resolve4(query).catch(() => resolver.resolve6(query));
        if (addresses.length === 0) throw error;
        return [`${query.replace(/\.$/, '')}.`];
      });
      return { records: answers, results: answers };
    }
    case 'MX': {
      // canary-checker writes an MX record as "host preference".
      const answers = await resolver.resolveMx(query);
      return { records: answers.map((item) => `${item.exchange} ${item.priority}`), results: answers };
    }
    case 'TXT': {
      const answers = await resolver.resolveTxt(query);
      return { records: answers.map((chunks) => chunks.join('')), results: answers.map((chunks) => chunks.join('')) };
    }
    case 'PTR': {
      // canary-checker's PTR query is an address (a reverse lookup); a reverse name works too.
      const answers = net.isIP(query) ? await resolver.reverse(query) : await resolver.resolvePtr(query);
      return { records: answers, results: answers };
    }
    case 'SRV': {
      const answers = await resolver.resolveSrv(query);
      return { records: answers.map((item) => `${item.priority} ${item.weight} ${item.port} ${item.name}`), results: answers };
    }
    case 'NS': {
      const answers = await resolver.resolveNs(query);
      return { records: answers, results: answers };
    }
  }
}

/** Names compare without case and without their final dot, as DNS does ("Mail.Example.com." = "mail.example.com"). */
function normalized(record: string): string {
  return record
    .trim()
    .split(/\s+/)
    .map((part) => part.toLowerCase().replace(/\.$/, ''))
    .join(' ');
}

const FAILURES: Record<string, string> = {
  ENOTFOUND: 'the name does not exist (NXDOMAIN)',
  ENODATA: 'the name has no records of this type',
  ESERVFAIL: 'the server failed to answer (SERVFAIL)',
  EREFUSED: 'the server refused the query',
  ECONNREFUSED: 'could not reach the server',
  EBADNAME: 'the query is not a valid name',
  ECANCELLED: 'no answer before the timeout',
};

/**
 * `dns`: asks `server` (or the system resolver) for the `querytype` records of `query` and checks
 * minrecords and exactreply (compared without order, case or final dots). Variables: query, querytype,
 * server, records, count, results.
 */
export const dnsCheck = defineCheckType({
  type: 'dns',
  label: 'DNS',
  icon: 'book-open',
  schema,
  endpoint: (spec) => `${spec.querytype ?? 'A'}/${spec.query}${spec.server ? `@${describeServer(serverOf(spec))}` : ''}`,
  timeoutMs: (spec) => (spec.timeout ?? DEFAULT_TIMEOUT_S) * 1000 + 1000,
  async run(spec, ctx) {
    const type = spec.querytype ?? 'A';
    const timeoutS = spec.timeout ?? DEFAULT_TIMEOUT_S;
    const server = serverOf(spec);
    const where = `${type} ${spec.query} on ${describeServer(server)}`;
    const resolver = new Resolver({ timeout: timeoutS * 1000, tries: 1 });
    const started = performance.now();
    let timedOut = false;
    const base = { query: spec.query, querytype: type, server: describeServer(server) };
    try {
      if (server) {
        // Node's resolver takes addresses only: a server given by name is looked up first.
        const address = net.isIP(server.host) ? server.host : (await lookup(server.host)).address;
        resolver.setServers([net.isIPv6(address) ? `[${address}]:${server.port}` : `${address}:${server.port}`]);
      }
      const cancel = () => resolver.cancel();
      ctx.signal.addEventListener('abort', cancel, { once: true });
      // The check keeps its own clock: c-ares may stretch its timeout, and the runner's abort comes a second later.
      const clock = setTimeout(() => {
        timedOut = true;
        resolver.cancel();
      }, timeoutS * 1000);
      const answer = await ask(resolver, type, spec.query).finally(() => {
        clearTimeout(clock);
        ctx.signal.removeEventListener('abort', cancel);
      });
      const duration = Math.max(1, Math.round(performance.now() - started));
      const data = { ...base, records: answer.records, count: answer.records.length, results: answer.results };
      const problems: string[] = [];
      if (spec.minrecords !== undefined && answer.records.length < spec.minrecords) problems.push(`returned ${answer.records.length} records, expected at least ${spec.minrecords}`);
      if (spec.exactreply?.length) {
        const got = answer.records.map(normalized).sort();
        const wanted = spec.exactreply.map(normalized).sort();
        if (got.length !== wanted.length || got.some((record, index) => record !== wanted[index])) problems.push(`got ${answer.records.join(', ') || 'nothing'}, expected ${spec.exactreply.join(', ')}`);
      }
      if (spec.thresholdMillis && duration > spec.thresholdMillis) problems.push(`answered in ${duration} ms, more than the threshold of ${spec.thresholdMillis} ms`);
      const details = { server: base.server, records: answer.records };
      if (problems.length > 0) return { pass: false, duration, message: `${where}: ${problems.join('; ')}`, data, details };
      return { pass: true, duration, message: `got ${answer.records.join(', ') || 'no records'} in ${duration} ms`, data, details };
    } catch (error) {
      const duration = Math.round(performance.now() - started);
      const code = codeOf(error) ?? '';
      const reason = code === 'ETIMEOUT' || timedOut ? `no answer within ${timeoutS} s` : (FAILURES[code] ?? messageOf(error));
      return { pass: false, duration, message: `${where}: ${reason}`, error: code || messageOf(error), data: { ...base, records: [], count: 0, results: [] } };
    }
  },
});
