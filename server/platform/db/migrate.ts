import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from '../logger';
import { MIGRATIONS_DIR } from '../paths';
import { messageOf } from '../errors';

/** Arbitrary constant shared by every instance: the advisory lock that serialises migrations. */
const MIGRATION_LOCK = 4_242_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await fs.readdir(dir)).filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file)).sort();
  return Promise.all(
    files.map(async (file) => {
      const sql = await fs.readFile(path.join(dir, file), 'utf8');
      return {
        version: file.slice(0, 4),
        name: file.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    }),
  );
}

export interface MigrateResult {
  applied: string[];
  total: number;
}

/**
 * Applies pending migrations in order, each in its own transaction, under an advisory lock so that
 * instances starting together take turns. Forward-only: a migration that fails rolls back and stops.
 */
export async function migrate(pool: pg.Pool, log: Logger, dir = MIGRATIONS_DIR): Promise<MigrateResult> {
  const migrations = await readMigrations(dir);
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Map<string, string>();
    for (const row of (await client.query<{ version: string; checksum: string }>('SELECT version, checksum FROM schema_migrations')).rows) {
      done.set(row.version, row.checksum);
    }
    for (const migration of migrations) {
      const checksum = done.get(migration.version);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) log.warn({ migration: migration.name }, 'an applied migration was edited since it ran; migrations are forward-only');
        continue;
      }
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [migration.version, migration.name, migration.checksum]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${migration.name} failed: ${messageOf(error)}`);
      }
      applied.push(migration.name);
      log.info({ migration: migration.name }, 'migration applied');
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return { applied, total: migrations.length };
}
