import type { FastifyInstance } from 'fastify';
import { buildApp, type AppContext } from '../server/app';
import { loadConfig } from '../server/platform/config';
import { createLogger } from '../server/platform/logger';
import { createTestDatabase, type TestDatabase } from './db';

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  db: TestDatabase;
  close(): Promise<void>;
}

/** The real app on a fresh clone of the migrated database, driven with `app.inject()`. */
export async function createTestApp(options: { webDist?: string } = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
  const log = createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
  const { app, context } = await buildApp({ config, pool: db.pool, log, ...(options.webDist ? { webDist: options.webDist } : {}) });
  await app.ready();
  return {
    app,
    context,
    db,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
