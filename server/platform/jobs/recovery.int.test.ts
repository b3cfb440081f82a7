import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { startJobHistory } from './history';
import { heartbeatInstance } from './instance';
import { BackgroundWork } from './registry';
import { claimDueRows } from './row-claims';
import { SCHEDULED_JOBS, syncSystemJob } from './system-jobs';
import { eventually, FAST, startTestRuntime } from './testing';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

describe('work in flight when an instance dies', () => {
  it('is marked FAILED with a reason, its lease becomes claimable, and its slot is not run again', async () => {
    const registry = new BackgroundWork();
    const slots: string[] = [];
    const job = {
      name: 'Crashy',
      schedule: '@every 2s',
      description: '',
      async run(run: { scheduledFor: Date | undefined; success(): void }) {
        slots.push(run.scheduledFor?.toISOString() ?? '');
        run.success();
      },
    };
    registry.job(job);
    await syncSystemJob(db.pool, job);
    await db.pool.query("UPDATE scheduled_jobs SET next_run_at = now() WHERE name = 'Crashy'");

    // A "dead" instance claims the slot and writes its RUNNING row, then stops heartbeating.
    await heartbeatInstance(db.pool, 'dead-instance', 300);
    const [claimed] = await claimDueRows(db.pool, SCHEDULED_JOBS, { owner: 'dead-instance', limit: 1, leaseMillis: 300 });
    if (!claimed) throw new Error('nothing claimed');
    const historyId = await startJobHistory(db.pool, { name: 'Crashy', instanceId: 'dead-instance', details: { scheduled_for: claimed.scheduledFor.toISOString() } });
    // A RUNNING row of a live instance must be left alone.
    await heartbeatInstance(db.pool, 'live-elsewhere', 120_000);
    const liveId = await startJobHistory(db.pool, { name: 'LongJob', instanceId: 'live-elsewhere' });

    const runtime = await startTestRuntime(db.url, registry);
    try {
      const row = await eventually(async () => {
        const { rows } = await db.pool.query<{ status: string; details: { errors: string[] }; time_end: Date | null; duration_millis: number | null }>(
          'SELECT status, details, time_end, duration_millis FROM job_history WHERE id = $1',
          [historyId],
        );
        return rows[0]?.status === 'FAILED' ? rows[0] : undefined;
      }, 10_000, 'the dead run to be failed');
      expect(row.details.errors).toEqual(['the instance running it stopped']);
      expect(row.time_end).toBeInstanceOf(Date);
      expect(row.duration_millis).toBeGreaterThanOrEqual(0);

      // The live runtime picks up the next slots once the lease expired, never the dead one's slot.
      await eventually(async () => (slots.length >= 1 ? true : undefined), 10_000, 'a run by the live instance');
      expect(slots).not.toContain(claimed.scheduledFor.toISOString());
      const live = (await db.pool.query<{ status: string }>('SELECT status FROM job_history WHERE id = $1', [liveId])).rows[0];
      expect(live?.status).toBe('RUNNING');
      expect((await db.pool.query("SELECT 1 FROM job_instances WHERE id = 'dead-instance'")).rowCount).toBe(0);
    } finally {
      await runtime.stop();
    }
  });

  it('an instance whose heartbeat stops loses its runs to recovery by another instance', async () => {
    await db.pool.query('DELETE FROM job_history');
    const registry = new BackgroundWork();
    let release: () => void = () => undefined;
    const job = {
      name: 'Hangs',
      schedule: '@hourly',
      description: '',
      run: () => new Promise<void>((resolve) => (release = resolve)),
    };
    registry.job(job);
    await syncSystemJob(db.pool, job);
    await db.pool.query("UPDATE scheduled_jobs SET next_run_at = now() WHERE name = 'Hangs'");
    // A runtime whose heartbeat never comes within its lease: as good as dead to the others.
    const frozen = await startTestRuntime(db.url, registry, { heartbeatMillis: 60_000, leaseMillis: 400 });
    const watcher = await startTestRuntime(db.url, new BackgroundWork(), FAST);
    try {
      const row = await eventually(async () => {
        const { rows } = await db.pool.query<{ status: string; details: { errors: string[] } }>("SELECT status, details FROM job_history WHERE name = 'Hangs'");
        return rows[0]?.status === 'FAILED' ? rows[0] : undefined;
      }, 10_000, 'the frozen run to be failed');
      expect(row.details.errors).toEqual(['the instance running it stopped']);
      release();
    } finally {
      await Promise.all([frozen.stop(), watcher.stop()]);
    }
    // The late finish did not overwrite the recovered status.
    const after = (await db.pool.query<{ status: string }>("SELECT status FROM job_history WHERE name = 'Hangs'")).rows;
    expect(after).toEqual([{ status: 'FAILED' }]);
  });
});
