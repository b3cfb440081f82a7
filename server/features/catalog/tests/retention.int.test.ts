import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { runSystemJobOnce } from '../../../platform/jobs/testing';
import { configChangeRetentionJob } from '../retention';

/** Change retention run as the scheduler runs it: 60 days by default, in batches, newer changes kept. */
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('config change retention', () => {
  it('deletes changes older than 60 days in batches of 1000 and keeps the rest and the items', async () => {
    const { rows } = await db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, config) VALUES ('App', 'kept', '{}') RETURNING id");
    const id = rows[0]?.id;
    await db.pool.query(
      `INSERT INTO config_changes (config_id, config_type, change_type, created_at)
       SELECT $1::uuid, 'App', 'diff', now() - interval '61 days' - n * interval '1 minute' FROM generate_series(1, 2100) n
       UNION ALL SELECT $1::uuid, 'App', 'diff', now() - interval '59 days' - n * interval '1 minute' FROM generate_series(1, 5) n`,
      [id],
    );
    const run = await runSystemJobOnce(db.pool, db.url, configChangeRetentionJob());
    expect(run).toMatchObject({ status: 'SUCCESS', success_count: 2100, details: { summary: { deleted: 2100, batches: 3, retention_days: 60 } } });
    const left = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM config_changes WHERE config_id = $1', [id]);
    expect(left.rows[0]?.n).toBe(5);
    expect((await db.pool.query('SELECT 1 FROM config_items WHERE id = $1', [id])).rowCount).toBe(1);
  });

  it('follows the config_changes.retention_days property', async () => {
    await db.pool.query("INSERT INTO properties (name, value) VALUES ('config_changes.retention_days', '30') ON CONFLICT (name, organization_id) DO UPDATE SET value = EXCLUDED.value");
    try {
      // runSystemJobOnce answers the job's first finished run: the first test's goes.
      await db.pool.query("DELETE FROM job_history WHERE name = 'ConfigChangeRetention'");
      const run = await runSystemJobOnce(db.pool, db.url, configChangeRetentionJob());
      expect(run).toMatchObject({ status: 'SUCCESS', details: { summary: { deleted: 5, retention_days: 30 } } });
    } finally {
      await db.pool.query("DELETE FROM properties WHERE name = 'config_changes.retention_days'");
    }
  });
});
