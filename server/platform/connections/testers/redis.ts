import { Redis, type RedisOptions } from 'ioredis';
import { isUrlForm, redactConnection } from '../../peers/credentials';
import type { ConnectionTester } from '../types';
import { failed, passed, reasonOf, secretsOf, TEST_TIMEOUT_MS } from './shared';
import { assertEgressResolved } from '../../egress-connect';

const HOST_PORT = /^(\[[^\]]+\]|[^:\s/]+):(\d{1,5})$/;

/**
 * `redis`: connects to url (redis://, rediss:// or host:port; no retries, no offline queue), selects
 * properties.db, and answers ok when PING answers PONG, with the version INFO server gives.
 */
export const testRedis: ConnectionTester = async (connection, signal) => {
  const address = connection.url.trim();
  const db = connection.properties.db?.trim() || '0';
  if (!isUrlForm(address) && !HOST_PORT.test(address)) return failed('url must be redis://host:6379 or host:port');
  if (!/^\d+$/.test(db)) return failed(`db ${JSON.stringify(db)} is not a whole number`);
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout: TEST_TIMEOUT_MS,
    commandTimeout: TEST_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    enableReadyCheck: false,
    db: Number(db),
    ...(connection.username ? { username: connection.username } : {}),
    ...(connection.password ? { password: connection.password } : {}),
  };
  const hostPort = HOST_PORT.exec(address);
  let client: Redis;
  try {
    client = hostPort ? new Redis({ ...options, host: (hostPort[1] ?? '').replace(/^\[|\]$/g, ''), port: Number(hostPort[2]) }) : new Redis(address, options);
  } catch (error) {
    return failed(`url is not a Redis address: ${reasonOf(error, signal, secretsOf(connection))}`);
  }
  // A refused AUTH arrives as an event while the awaited call only says "Connection is closed".
  let lastError: unknown;
  client.on('error', (error: unknown) => {
    lastError = error;
  });
  const abort = () => client.disconnect();
  signal.addEventListener('abort', abort, { once: true });
  try {
    // The egress policy judges the host (and its addresses) before ioredis connects.
    if (!client.options.path) await assertEgressResolved(client.options.host ?? '');
    await client.connect();
    const reply = await client.ping();
    if (reply !== 'PONG') return failed(`expected PONG, got ${reply}`);
    const version = /^redis_version:(\S+)/m.exec(await client.info('server').catch(() => ''))?.[1];
    return passed(version ? `Redis ${version} answered PONG` : 'answered PONG');
  } catch (error) {
    return failed(`could not PING ${redactConnection(address)}${db !== '0' ? ` db ${db}` : ''}: ${reasonOf(lastError ?? error, signal, secretsOf(connection))}`);
  } finally {
    signal.removeEventListener('abort', abort);
    client.disconnect();
  }
};
