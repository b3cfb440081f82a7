import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../server/platform/db/pool';
import { createLogger } from '../server/platform/logger';

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}

/**
 * Clones the migrated template database into a fresh one for this test file; `empty: true` gives a
 * database with no migrations applied instead.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const templateUrl = inject('templateUrl');
  const template = new URL(templateUrl).pathname.slice(1);
  const name = `${template}_t_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(templateUrl, 'postgres') });
  await admin.connect();
  try {
    // CREATE DATABASE … TEMPLATE needs the template idle; another file's clone may be in progress.
    for (let attempt = 0; ; attempt += 1) {
      try {
        const source = options.empty ? 'template0' : template;
        await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)} TEMPLATE ${admin.escapeIdentifier(source)}`);
        break;
      } catch (error) {
        if (attempt >= 50 || !String((error as Error).message).includes('is being accessed by other users')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(templateUrl, name);
  const pool = createPool(url, createLogger('silent'), { max: 10 });
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: withDatabase(templateUrl, 'postgres') });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
