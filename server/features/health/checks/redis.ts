import { Redis, type RedisOptions } from 'ioredis';
import { z } from 'zod';
import { defineCheckType } from '../define';
import { envVarField, isUrlForm, redactConnection, safeMessage, urlPassword } from '../../../platform/peers/credentials';
import { assertEgressResolved } from '../../../platform/egress-connect';

const HOST_PORT = /^(\[[^\]]+\]|[^:\s/]+):(\d{1,5})$/;

/**
 * canary-checker's RedisCheck: `addr` (host:port; deprecated there in favour of `url`, still common), `url`
 * (host:port or redis:// / rediss://), `username`, `password`, `db` (spec §3: defaults to 0).
 */
const schema = z
  .object({
    addr: z.string().trim().regex(HOST_PORT, 'must be host:port, e.g. redis.internal:6379').optional(),
    url: z.string().trim().min(1, 'must not be empty').optional(),
    connection: z.string().trim().regex(/^connection:\/\//, 'must be a connection reference: connection://<namespace>/<name>').optional(),
    username: envVarField.optional(),
    password: envVarField.optional(),
    db: z.number().int().min(0, 'must be 0 or more').default(0),
  })
  .loose()
  .superRefine((spec, ctx) => {
    // A connection gives the url when the check runs (server/platform/secrets/spec-references.ts).
    if (!spec.addr && !spec.url && !spec.connection) ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required (or addr: host:port)' });
    if (spec.url && !isUrlForm(spec.url) && !HOST_PORT.test(spec.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be host:port or redis://host:port' });
  });

type RedisSpec = z.infer<typeof schema>;

function target(spec: RedisSpec): string {
  return spec.url ?? spec.addr ?? '';
}

/** INFO's `key:value` lines as a map; numbers become numbers so `info.connected_clients < 100` works. */
function parseInfo(text: string): Record<string, string | number> {
  const info: Record<string, string | number> = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const value = line.slice(colon + 1);
    info[line.slice(0, colon)] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return info;
}

/**
 * `redis`: connects (no retries, no offline queue), selects `db`, and passes when PING answers PONG.
 * Variables: reply (the PING answer), info (the INFO answer as a map; empty when INFO is refused).
 */
export const redisCheck = defineCheckType({
  type: 'redis',
  label: 'Redis',
  icon: 'database-zap',
  schema,
  endpoint: (spec) => `${redactConnection(target(spec))}${spec.db ? ` db ${spec.db}` : ''}`,
  async run(spec, ctx) {
    const address = target(spec);
    const options: RedisOptions = {
      lazyConnect: true,
      connectTimeout: ctx.timeoutMs,
      commandTimeout: ctx.timeoutMs,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
      enableReadyCheck: false,
      db: spec.db,
      ...(spec.username ? { username: spec.username } : {}),
      ...(spec.password ? { password: spec.password } : {}),
    };
    const hostPort = HOST_PORT.exec(address);
    const client = hostPort
      ? new Redis({ ...options, host: (hostPort[1] ?? '').replace(/^\[|\]$/g, ''), port: Number(hostPort[2]) })
      : new Redis(address, options);
    // A refused AUTH or a dropped connection arrives as an event, and the awaited call only says
    // "Connection is closed": the event has the reason.
    let lastError: unknown;
    client.on('error', (error: unknown) => {
      lastError = error;
    });
    const abort = () => client.disconnect();
    ctx.signal.addEventListener('abort', abort, { once: true });
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // The egress policy judges the host (and its addresses) before ioredis connects.
      if (!client.options.path) await assertEgressResolved(client.options.host ?? '');
      await client.connect();
      const reply = await client.ping();
      const info: Record<string, string | number> = await client.info().then(parseInfo, () => ({}));
      const duration = elapsed();
      const data = { reply, info };
      const version = typeof info.redis_version === 'string' ? `redis ${info.redis_version} ` : '';
      const details = { reply, ...(version ? { version: info.redis_version } : {}) };
      if (reply !== 'PONG') return { pass: false, duration, message: `expected PONG, got ${reply}`, data, details };
      return { pass: true, duration, message: `${version}answered PONG`, data, details };
    } catch (error) {
      const reason = ctx.signal.aborted ? 'timed out' : safeMessage(lastError ?? error, [spec.password, urlPassword(address)]);
      return { pass: false, duration: elapsed(), message: `could not PING ${redactConnection(address)}: ${reason}`, error: reason, data: { reply: '', info: {} } };
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      client.disconnect();
    }
  },
});
