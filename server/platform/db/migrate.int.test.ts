import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { createLogger } from '../logger';
import { createPool } from './pool';
import { migrate, readMigrations } from './migrate';

const log = createLogger('silent');
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
});
afterAll(async () => db?.drop());

describe('migrations', () => {
  it('apply from an empty database once, even when instances start together', async () => {
    const pools = [createPool(db.url, log, { max: 2 }), createPool(db.url, log, { max: 2 }), createPool(db.url, log, { max: 2 })];
    const results = await Promise.all(pools.map((pool) => migrate(pool, log)));
    await Promise.all(pools.map((pool) => pool.end()));
    const all = await readMigrations();
    const appliedCounts = results.map((result) => result.applied.length).sort();
    // Exactly one instance applied everything; the others found nothing to do.
    expect(appliedCounts).toEqual([0, 0, all.length]);
    const { rows } = await db.pool.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(all.map((migration) => migration.version));
  });

  it('leave platform tables, views and the local agent in place', async () => {
    const { rows } = await db.pool.query<{ name: string }>("SELECT name FROM agents WHERE id = '00000000-0000-0000-0000-000000000000'");
    expect(rows).toEqual([{ name: 'local' }]);
    for (const relation of ['people', 'properties', 'agents', 'job_history', 'job_histories', 'job_history_names', 'event_queue', 'event_queue_summary']) {
      const found = await db.pool.query('SELECT to_regclass($1) AS oid', [relation]);
      expect(found.rows[0].oid, relation).not.toBeNull();
    }
  });

  it('roll back a failing migration completely and stop there', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-mig-'));
    for (const migration of await readMigrations()) await fs.writeFile(path.join(dir, `${migration.name}.sql`), migration.sql);
    await fs.writeFile(path.join(dir, '9998_good.sql'), 'CREATE TABLE mig_probe_a (id int);');
    await fs.writeFile(path.join(dir, '9999_bad.sql'), 'CREATE TABLE mig_probe_b (id int); SELECT no_such_function();');
    await expect(migrate(db.pool, log, dir)).rejects.toThrow('migration 9999_bad failed');
    const a = await db.pool.query("SELECT to_regclass('mig_probe_a') AS oid");
    const b = await db.pool.query("SELECT to_regclass('mig_probe_b') AS oid");
    expect(a.rows[0].oid).not.toBeNull();
    expect(b.rows[0].oid).toBeNull();
    const { rowCount } = await db.pool.query("SELECT 1 FROM schema_migrations WHERE version = '9999'");
    expect(rowCount).toBe(0);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
