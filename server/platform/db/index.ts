import type pg from 'pg';
import { redactUrl, type Config } from '../config';
import type { Logger } from '../logger';
import { ensureEmbedded, type EmbeddedHandle } from './embedded';
import { createPool, type PoolOptions } from './pool';
import { messageOf } from '../errors';

export interface Database {
  pool: pg.Pool;
  /** Where the data lives, for messages: the embedded data directory or the redacted external URL. */
  description: string;
  embedded: EmbeddedHandle | undefined;
  close(): Promise<void>;
}

/** Opens the database the configuration names: DATABASE_URL, or the embedded server of the data directory. */
export async function openDatabase(config: Config, log: Logger, options: PoolOptions = {}): Promise<Database> {
  if (config.databaseUrl) {
    const pool = createPool(config.databaseUrl, log, options);
    try {
      const client = await pool.connect();
      client.release();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new Error(`cannot connect to DATABASE_URL ${redactUrl(config.databaseUrl)}: ${messageOf(error)}`);
    }
    return {
      pool,
      description: redactUrl(config.databaseUrl),
      embedded: undefined,
      async close() {
        await pool.end();
      },
    };
  }
  const embedded = await ensureEmbedded({ dataDir: config.dataDir, log, avoidPorts: [config.port] });
  const pool = createPool(embedded.url, log, options);
  return {
    pool,
    description: `embedded PostgreSQL in ${config.dataDir}`,
    embedded,
    async close() {
      await pool.end().catch(() => undefined);
      await embedded.stop();
    },
  };
}
