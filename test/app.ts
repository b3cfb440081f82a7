import type { FastifyInstance } from 'fastify';
import type { Role } from '../common/rbac';
import { buildApp } from '../server/app';
import type { AppContext } from '../server/platform/context';
import { createIdentity } from '../server/features/identity/identities';
import { createSession } from '../server/features/identity/sessions';
import { loadConfig } from '../server/platform/config';
import { createLogger } from '../server/platform/logger';
import { createTestDatabase, type TestDatabase } from './db';

export interface TestApp {
  app: FastifyInstance;
  /** Starts listening on a free loopback port (for real HTTP clients); answers the base URL. */
  listen(): Promise<string>;
  context: AppContext;
  db: TestDatabase;
  /** Headers that sign a request in as an admin (a session token), for tests about something else. */
  adminHeaders: Record<string, string>;
  /** A new person with these roles, and headers that sign requests in as them. */
  userWith(roles: Role[], email?: string): Promise<{ id: string; headers: Record<string, string> }>;
  close(): Promise<void>;
}

let counter = 0;

/** The real app on a fresh clone of the migrated database, driven with `app.inject()`. */
export async function createTestApp(options: { webDist?: string; env?: Record<string, string>; logs?: string[] } = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', ...options.env });
  // `logs` collects every log line (at debug level), for tests that assert what never reaches a log.
  const logs = options.logs;
  const log = logs ? createLogger('debug', { write: (line: string) => void logs.push(line) }) : createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
  const { app, context } = await buildApp({ config, pool: db.pool, log, ...(options.webDist ? { webDist: options.webDist } : {}) });
  await app.ready();
  const userWith = async (roles: Role[], email?: string) => {
    counter += 1;
    const address = email ?? `user${counter}-${Date.now()}@example.com`;
    const { id } = await createIdentity(db.pool, { traits: { email: address, name: { first: roles.join('+') || 'nobody', last: `User${counter}` } }, roles, verified: true });
    const { token } = await createSession(db.pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'test' });
    return { id, headers: { 'x-session-token': token } };
  };
  const admin = await userWith(['admin'], 'test-admin@example.com');
  let base: string | undefined;
  return {
    app,
    async listen() {
      base ??= await app.listen({ port: 0, host: '127.0.0.1' });
      return base;
    },
    context,
    db,
    adminHeaders: admin.headers,
    userWith,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
