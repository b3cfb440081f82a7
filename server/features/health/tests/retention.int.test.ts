import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import type { SystemJob } from '../../../platform/jobs/registry';
import { runSystemJobOnce } from '../../../platform/jobs/testing';
import { checkRollupRetentionJob, checkStatusRetentionJob } from '../retention';

/** Retention of raw results and rollups, run as the scheduler runs it, against a real database. */
let db: TestDatabase;
const checkId = '88888888-8888-4888-8888-888888888888';

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`INSERT INTO canaries (id, name) VALUES ('99999999-9999-4999-8999-999999999999', 'kept')`);
  await db.pool.query(`INSERT INTO checks (id, canary_id, key, type, name) VALUES ($1, '99999999-9999-4999-8999-999999999999', 'tcp/k', 'tcp', 'k')`, [checkId]);
});

afterAll(async () => {
  await db?.drop();
});

const runOnce = (job: SystemJob) => runSystemJobOnce(db.pool, db.url, job);

const count = async (sql: string) => (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`)).rows[0]?.n;

describe('health retention', () => {
  it('deletes raw results older than 30 days in batches of 1000, keeping newer ones and the totals', async () => {
    // Results 31..33 days old (2,500 of them) and a day old (10), in time order: the trigger rolls them up.
    await db.pool.query(
      `INSERT INTO check_statuses (check_id, time, status, duration)
       SELECT $1::uuid, now() - interval '31 days' - (2501 - n) * interval '1 minute', n % 3 <> 0, 10 FROM generate_series(1, 2500) n
       UNION ALL SELECT $1::uuid, now() - interval '1 day' + n * interval '1 minute', true, 20 FROM generate_series(1, 10) n`,
      [checkId],
    );
    const run = await runOnce(checkStatusRetentionJob());
    expect(run).toMatchObject({ status: 'SUCCESS', success_count: 2500, details: { summary: { deleted: 2500, batches: 3, retention_days: 30 } } });
    expect(await count('check_statuses')).toBe(10);
    // Rollups and totals still count everything that happened.
    expect((await db.pool.query('SELECT passed + failed AS n FROM check_totals WHERE check_id = $1', [checkId])).rows[0]?.n).toBe(2510);
  });

  it('deletes 10-minute rollups after 2 days, hourly after 7 and daily after 1830, saying how many of each', async () => {
    const before = {
      '10m': await count(`check_rollups_10m WHERE bucket < now() - interval '2 days'`),
      hourly: await count(`check_rollups_hourly WHERE bucket < now() - interval '7 days'`),
    };
    expect(before['10m']).toBeGreaterThan(0);
    expect(before.hourly).toBeGreaterThan(0);
    const kept = { '10m': await count(`check_rollups_10m WHERE bucket >= now() - interval '2 days'`), daily: await count('check_rollups_daily') };
    const run = await runOnce(checkRollupRetentionJob());
    expect(run.status).toBe('SUCCESS');
    expect(run.details.summary).toEqual({
      check_rollups_10m: { deleted: before['10m'], batches: 1, retention_days: 2 },
      check_rollups_hourly: { deleted: before.hourly, batches: 1, retention_days: 7 },
      check_rollups_daily: { deleted: 0, batches: 1, retention_days: 1830 },
    });
    expect(await count('check_rollups_10m')).toBe(kept['10m']);
    expect(await count(`check_rollups_hourly WHERE bucket < now() - interval '7 days'`)).toBe(0);
    expect(await count('check_rollups_daily')).toBe(kept.daily);
  });
});
