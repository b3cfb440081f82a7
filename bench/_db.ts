// Databases for the benchmarks: an embedded PostgreSQL in a temporary (or kept) data directory, and the
// external one BENCH_DATABASE_URL names. Both are migrated before use. (The underscore keeps this file out
// of `npm run bench`.)
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { ensureEmbedded } from '../server/platform/db/embedded';
import { migrate } from '../server/platform/db/migrate';
import { createPool } from '../server/platform/db/pool';
import { createLogger } from '../server/platform/logger';

export interface BenchDatabase {
  pool: pg.Pool;
  url: string;
  /** "embedded PostgreSQL (18.4)" or "external PostgreSQL (16.2)". */
  label: string;
}

async function described(pool: pg.Pool, kind: string): Promise<string> {
  return `${kind} PostgreSQL (${(await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version})`;
}

/**
 * Runs `work` on a fresh embedded PostgreSQL, stopped and removed afterwards. With `keepIn`, that data
 * directory is used and kept (for data that takes minutes to seed).
 */
export async function withEmbedded<T>(name: string, work: (db: BenchDatabase) => Promise<T>, keepIn?: string): Promise<T> {
  const log = createLogger('warn');
  const dataDir = keepIn ?? (await fs.mkdtemp(path.join(os.tmpdir(), `wk-bench-${name}-`)));
  await fs.mkdir(dataDir, { recursive: true });
  // When running as root the engine runs as "postgres", which must be able to enter the directory.
  await fs.chmod(dataDir, 0o755);
  const embedded = await ensureEmbedded({ dataDir, log });
  embedded.takeOwnership();
  // A quiet pool: stopping the engine at the end closes its idle connections.
  const pool = createPool(embedded.url, createLogger('error'));
  try {
    await migrate(pool, log);
    return await work({ pool, url: embedded.url, label: await described(pool, 'embedded') });
  } finally {
    await pool.end();
    await embedded.stop();
    if (!keepIn) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** Runs `work` on the external PostgreSQL of BENCH_DATABASE_URL (an empty, disposable database), if set. */
export async function withExternal<T>(work: (db: BenchDatabase) => Promise<T>): Promise<T | undefined> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    process.stdout.write('\n(set BENCH_DATABASE_URL to an empty, disposable database to measure an external PostgreSQL too)\n');
    return undefined;
  }
  const pool = createPool(url, createLogger('error'));
  try {
    await migrate(pool, createLogger('warn'));
    return await work({ pool, url, label: await described(pool, 'external') });
  } finally {
    await pool.end();
  }
}

export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}
