import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import type { SystemJob } from '../../../platform/jobs/registry';
import { runSystemJobOnce } from '../../../platform/jobs/testing';
import { dropPartitionsBefore, ensurePartitions, listPartitions } from '../partitions';
import { checkRollupRetentionJob, checkStatusRetentionJob } from '../retention';

/** Retention of raw results (whole daily partitions) and rollups, run as the scheduler runs it, against a real database. */
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

/** The partition names of the UTC days of the rows `where` selects. */
const daysOf = async (where: string) =>
  (await db.pool.query<{ name: string }>(`SELECT DISTINCT 'check_statuses_' || to_char(time AT TIME ZONE 'UTC', 'YYYYMMDD') AS name FROM check_statuses WHERE ${where} ORDER BY 1`)).rows.map((row) => row.name);

describe('health retention', () => {
  it('drops whole days older than 30 days, keeps the day that straddles the limit, deletes old rows of the default partition in batches', async () => {
    // 1,500 results in the first 25 minutes of the UTC day 35 days ago (anchored to the day, so that late in
    // a UTC day they do not spill into the next day, which has a partition below), 2,500 results 31 to 32.7 days old, 5 at the start of the UTC day that holds
    // "30 days ago" (older than 30 days, but their day is not over), and 10 a day old; all in time order, so
    // the trigger rolls them up.
    await db.pool.query(
      `INSERT INTO check_statuses (check_id, time, status, duration)
       SELECT $1::uuid, date_trunc('day', now() - interval '35 days', 'UTC') + n * interval '1 second', false, 5 FROM generate_series(1, 1500) n
       UNION ALL SELECT $1::uuid, now() - interval '31 days' - (2501 - n) * interval '1 minute', n % 3 <> 0, 10 FROM generate_series(1, 2500) n
       UNION ALL SELECT $1::uuid, date_trunc('day', now() - interval '30 days', 'UTC') + n * interval '1 millisecond', true, 15 FROM generate_series(0, 4) n
       UNION ALL SELECT $1::uuid, now() - interval '1 day' + n * interval '1 minute', true, 20 FROM generate_series(1, 10) n`,
      [checkId],
    );
    // Days without a partition wait in the default one until their partitions are made (the daily job makes
    // those of the days within the retention); here from 34 days back, so the 35-day-old results stay there.
    expect(await count('check_history.check_statuses_default')).toBeGreaterThanOrEqual(4005);
    await ensurePartitions(db.pool, { since: new Date(Date.now() - 34 * 86_400_000) });
    const oldDays = await daysOf(`time >= now() - interval '34 days' AND time < now() - interval '31 days'`);
    expect(oldDays.length).toBeGreaterThanOrEqual(2);
    expect(await count('check_history.check_statuses_default')).toBe(1500);

    const run = await runOnce(checkStatusRetentionJob());
    expect(run).toMatchObject({
      status: 'SUCCESS',
      success_count: oldDays.length + 1500,
      details: { summary: { dropped_partitions: oldDays, deleted_from_default: 1500, batches: 2, retention_days: 30 } },
    });
    expect((run.details.summary as { dropped_bytes: number }).dropped_bytes).toBeGreaterThan(0);
    const left = (await listPartitions(db.pool)).map((partition) => partition.name);
    for (const day of oldDays) expect(left).not.toContain(day);
    // The straddling day and the newer results stay; nothing dead is left behind in the default partition but what was deleted.
    expect(await count('check_statuses')).toBe(15);
    expect(await count(`check_statuses WHERE time < now() - interval '30 days'`)).toBe(5);
    // Rollups and totals still count everything that happened.
    expect((await db.pool.query('SELECT passed + failed AS n FROM check_totals WHERE check_id = $1', [checkId])).rows[0]?.n).toBe(4015);
  });

  it('leaves a partition it cannot lock in time for the next run', async () => {
    await db.pool.query(`INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, now() - interval '33 days', true, 1)`, [checkId]);
    await ensurePartitions(db.pool, { since: new Date(Date.now() - 40 * 86_400_000) });
    const [day] = await daysOf(`time < now() - interval '31 days'`);
    // A long reader of the check history: dropping a partition must wait for it.
    const reader = new pg.Client({ connectionString: db.url });
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM check_statuses');
      const cutoff = new Date(Date.now() - 30 * 86_400_000);
      const blocked = await dropPartitionsBefore(db.pool, cutoff, { lockTimeoutMs: 200 });
      expect(blocked.dropped).toEqual([]);
      expect(blocked.skipped).toEqual([{ name: day, reason: 'canceling statement due to lock timeout' }]);
      await reader.query('COMMIT');
      const done = await dropPartitionsBefore(db.pool, cutoff, { lockTimeoutMs: 200 });
      expect(done.dropped.map((partition) => partition.name)).toEqual([day]);
      expect(done.skipped).toEqual([]);
      expect(done.lockedMs).toBeGreaterThan(0);
    } finally {
      await reader.end();
    }
  });

  it('drops a day that a stopped run detached but did not drop', async () => {
    await db.pool.query(`INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, now() - interval '33 days', true, 1)`, [checkId]);
    await ensurePartitions(db.pool, { since: new Date(Date.now() - 40 * 86_400_000) });
    const [day] = await daysOf(`time < now() - interval '31 days'`);
    await db.pool.query(`ALTER TABLE check_statuses DETACH PARTITION check_history.${day}`);
    expect((await listPartitions(db.pool)).map((partition) => partition.name)).not.toContain(day);
    const done = await dropPartitionsBefore(db.pool, new Date(Date.now() - 30 * 86_400_000));
    expect(done.dropped.map((partition) => partition.name)).toEqual([day]);
    expect((await db.pool.query('SELECT to_regclass($1) AS t', [`check_history.${day}`])).rows[0]?.t).toBeNull();
    // A day table still within the retention is not touched, attached or not.
    expect(await count(`check_statuses WHERE time > now() - interval '2 days'`)).toBeGreaterThan(0);
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
