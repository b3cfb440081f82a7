import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import type { SystemJob } from './registry';
import { failedEventRetentionJob, jobHistoryRetentionJob } from './retention';
import { runSystemJobOnce } from './testing';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query('DELETE FROM job_history');
  await db.pool.query('DELETE FROM event_queue');
  await db.pool.query('DELETE FROM properties');
  await db.pool.query('DELETE FROM scheduled_jobs');
});

interface RetentionSummary {
  deleted: number;
  batches: number;
  retention_days: number;
}

const runOnce = (job: SystemJob) => runSystemJobOnce<RetentionSummary>(db.pool, db.url, job);

describe('job history retention', () => {
  it('deletes finished rows older than the default 30 days in batches, keeping recent and RUNNING rows', async () => {
    await db.pool.query(`INSERT INTO job_history (name, status, time_start)
      SELECT 'Old', 'SUCCESS', now() - interval '31 days' FROM generate_series(1, 35)`);
    await db.pool.query(`INSERT INTO job_history (name, status, time_start) VALUES
      ('Recent', 'FAILED', now() - interval '29 days'), ('OldRunning', 'RUNNING', now() - interval '40 days')`);
    const run = await runOnce(jobHistoryRetentionJob(10));
    expect(run.status).toBe('SUCCESS');
    expect(run.success_count).toBe(35);
    expect(run.details.summary).toEqual({ deleted: 35, batches: 4, retention_days: 30 });
    const left = (await db.pool.query<{ name: string }>("SELECT name FROM job_history WHERE name <> 'JobHistoryRetention' ORDER BY name")).rows;
    expect(left.map((row) => row.name)).toEqual(['OldRunning', 'Recent']);
  });

  it('reads job_history.retention_days, and reports a bad value as a warning', async () => {
    await db.pool.query(`INSERT INTO job_history (name, status, time_start) VALUES ('Three', 'SUCCESS', now() - interval '3 days'), ('One', 'SUCCESS', now() - interval '1 day')`);
    await db.pool.query("INSERT INTO properties (name, value) VALUES ('job_history.retention_days', '2')");
    const run = await runOnce(jobHistoryRetentionJob());
    expect(run.details.summary).toMatchObject({ deleted: 1, retention_days: 2 });

    await db.pool.query('DELETE FROM job_history');
    await db.pool.query("UPDATE properties SET value = 'forever' WHERE name = 'job_history.retention_days'");
    const warned = await runOnce(jobHistoryRetentionJob());
    expect(warned.status).toBe('WARNING');
    expect(warned.details.warnings?.[0]).toMatch(/job_history.retention_days="forever" is not a whole number/);
    expect(warned.details.summary.retention_days).toBe(30);
  });
});

describe('failed event retention', () => {
  it('deletes events that ran out of attempts over 7 days ago, and nothing else', async () => {
    await db.pool.query(`INSERT INTO event_queue (name, attempts, max_attempts, last_attempt, error)
      SELECT 'old.failed', 5, 5, now() - interval '8 days', 'x' FROM generate_series(1, 25)`);
    await db.pool.query(`INSERT INTO event_queue (name, attempts, max_attempts, last_attempt, error) VALUES
      ('recent.failed', 5, 5, now() - interval '6 days', 'x'),
      ('old.retrying', 2, 5, now() - interval '8 days', 'x'),
      ('pending', 0, 5, NULL, NULL)`);
    const run = await runOnce(failedEventRetentionJob(10));
    expect(run.details.summary).toEqual({ deleted: 25, batches: 3, retention_days: 7 });
    const left = (await db.pool.query<{ name: string }>('SELECT name FROM event_queue ORDER BY name')).rows;
    expect(left.map((row) => row.name)).toEqual(['old.retrying', 'pending', 'recent.failed']);
  });
});
