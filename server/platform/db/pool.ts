import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger';
import { scopeConnections } from './tenant';

// timestamptz and jsonb come back as strings/objects; bigint counts as numbers when they fit.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
});
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => {
  const n = Number(value);
  return Number.isFinite(n) && String(n) === value.replace(/\.?0+$/, '') ? n : value;
});

export interface PoolOptions {
  max?: number;
  applicationName?: string;
}

export function createPool(url: string, log: Logger, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: options.applicationName ?? 'watchkeeper',
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', (error) => log.warn({ err: error.message }, 'idle database connection closed'));
  // Work done for one organization of hosted mode runs as its tenant role (./tenant.ts).
  return scopeConnections(pool);
}

/** Kysely over the same pool, for typed queries. Tables are described where they are used. */
export function createKysely<DB>(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
