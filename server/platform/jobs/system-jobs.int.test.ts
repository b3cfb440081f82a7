import os from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { LOCAL_AGENT_ID } from './history';
import { BackgroundWork, type SystemJob } from './registry';
import { syncSystemJob } from './system-jobs';
import { counterValue, eventually, sleep, startTestRuntime } from './testing';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query('DELETE FROM scheduled_jobs');
  await db.pool.query('DELETE FROM job_history');
});

interface HistoryRow {
  name: string;
  status: string;
  success_count: number;
  error_count: number;
  duration_millis: number | null;
  time_end: Date | null;
  hostname: string;
  agent_id: string;
  instance_id: string;
  details: { errors?: string[]; warnings?: string[]; summary?: Record<string, unknown>; scheduled_for?: string; skipped?: string };
}

async function finished(name: string): Promise<HistoryRow> {
  return eventually(async () => {
    const { rows } = await db.pool.query<HistoryRow>("SELECT * FROM job_history WHERE name = $1 AND status <> 'RUNNING' ORDER BY time_start LIMIT 1", [name]);
    return rows[0];
  }, 10_000, `a finished run of ${name}`);
}

/** Registers the job and makes it due now through its row, as an operator would. */
async function dueNow(registry: BackgroundWork, job: SystemJob): Promise<void> {
  registry.job(job);
  await syncSystemJob(db.pool, job);
  await db.pool.query('UPDATE scheduled_jobs SET next_run_at = now() WHERE name = $1', [job.name]);
}

describe('system job rows', () => {
  it('keeps an operator schedule until the code default changes', async () => {
    const job: SystemJob = { name: 'Sync', schedule: '@hourly', description: 'd1', run: async () => undefined };
    await syncSystemJob(db.pool, job);
    await db.pool.query("UPDATE scheduled_jobs SET schedule = '@every 10m', enabled = false WHERE name = 'Sync'");
    await syncSystemJob(db.pool, { ...job, description: 'd2' });
    let row = (await db.pool.query('SELECT schedule, default_schedule, description, enabled FROM scheduled_jobs')).rows[0];
    expect(row).toEqual({ schedule: '@every 10m', default_schedule: '@hourly', description: 'd2', enabled: false });
    await syncSystemJob(db.pool, { ...job, schedule: '@daily' });
    row = (await db.pool.query('SELECT schedule, default_schedule, enabled FROM scheduled_jobs')).rows[0];
    expect(row).toEqual({ schedule: '@daily', default_schedule: '@daily', enabled: false });
  });

  it('refuses a job whose schedule does not parse', () => {
    expect(() => new BackgroundWork().job({ name: 'x', schedule: '@every', description: '', run: async () => undefined })).toThrow(/invalid schedule/);
  });
});

describe('job history of system jobs', () => {
  it('records RUNNING then the final status, counts, duration, host, agent, slot and metrics', async () => {
    const registry = new BackgroundWork();
    let sawRunning = false;
    await dueNow(registry, {
      name: 'Works',
      schedule: '@hourly',
      description: '',
      async run(run) {
        const { rows } = await run.pool.query<{ status: string }>("SELECT status FROM job_history WHERE name = 'Works'");
        sawRunning = rows[0]?.status === 'RUNNING';
        run.success(3);
        run.summary({ checked: 3 });
        await sleep(30);
      },
    });
    const runtime = await startTestRuntime(db.url, registry);
    try {
      const row = await finished('Works');
      expect(sawRunning).toBe(true);
      expect(row).toMatchObject({ status: 'SUCCESS', success_count: 3, error_count: 0, hostname: os.hostname(), agent_id: LOCAL_AGENT_ID, instance_id: runtime.runtime.instanceId });
      expect(row.details.summary).toEqual({ checked: 3 });
      expect(row.details.errors).toEqual([]);
      expect(typeof row.details.scheduled_for).toBe('string');
      expect(row.duration_millis).toBeGreaterThanOrEqual(30);
      expect(row.time_end).toBeInstanceOf(Date);
      expect(await counterValue(runtime.metrics, 'jobRuns', { name: 'Works', status: 'SUCCESS' })).toBe(1);
      const { values } = await runtime.metrics.jobDuration.get();
      expect(values.some((sample) => sample.labels.name === 'Works' && sample.metricName?.endsWith('_count') && sample.value === 1)).toBe(true);
      // The slot moved to the next hour and the lease is gone (released just after the history row is
      // finished: read until it is, for a bounded time).
      const readJob = async () => (await db.pool.query<{ lease_owner: string | null; last_run_at: Date | null; next_run_at: Date }>("SELECT * FROM scheduled_jobs WHERE name = 'Works'")).rows[0];
      let job = await readJob();
      for (let tries = 0; tries < 50 && job?.lease_owner; tries += 1) {
        await sleep(100);
        job = await readJob();
      }
      expect(job?.lease_owner).toBeNull();
      expect(job?.last_run_at?.toISOString()).toBe(row.details.scheduled_for);
      // The next @hourly slot: in the future and on the hour (it may be seconds away near the hour's end).
      expect(job?.next_run_at.getTime()).toBeGreaterThan(Date.now());
      expect((job?.next_run_at.getTime() ?? 1) % 3_600_000).toBe(0);
    } finally {
      await runtime.stop();
    }
  });

  it('ends WARNING, FAILED and SKIPPED as the run reports', async () => {
    const registry = new BackgroundWork();
    await dueNow(registry, { name: 'Partly', schedule: '@hourly', description: '', run: async (run) => { run.success(2); run.error(new Error('item 3 broke')); } });
    await dueNow(registry, { name: 'Nothing', schedule: '@hourly', description: '', run: async (run) => { run.error('all broke'); } });
    await dueNow(registry, { name: 'Throws', schedule: '@hourly', description: '', run: async () => { throw new Error('boom'); } });
    await dueNow(registry, { name: 'Skips', schedule: '@hourly', description: '', run: async (run) => run.skip('feature disabled') });
    const runtime = await startTestRuntime(db.url, registry);
    try {
      expect(await finished('Partly')).toMatchObject({ status: 'WARNING', success_count: 2, error_count: 1, details: { errors: ['item 3 broke'] } });
      expect(await finished('Nothing')).toMatchObject({ status: 'FAILED', success_count: 0, error_count: 1, details: { errors: ['all broke'] } });
      expect(await finished('Throws')).toMatchObject({ status: 'FAILED', error_count: 1, details: { errors: ['boom'] } });
      expect(await finished('Skips')).toMatchObject({ status: 'SKIPPED', error_count: 0, details: { skipped: 'feature disabled' } });
      expect(await counterValue(runtime.metrics, 'jobRuns', { name: 'Throws', status: 'FAILED' })).toBe(1);
    } finally {
      await runtime.stop();
    }
  });

  it('does not run a disabled job', async () => {
    const registry = new BackgroundWork();
    await dueNow(registry, { name: 'Off', schedule: '@every 1s', description: '', run: async () => undefined });
    await db.pool.query("UPDATE scheduled_jobs SET enabled = false WHERE name = 'Off'");
    const runtime = await startTestRuntime(db.url, registry);
    await sleep(1_500);
    await runtime.stop();
    expect((await db.pool.query("SELECT 1 FROM job_history WHERE name = 'Off'")).rowCount).toBe(0);
  });

  it('wakes on a schedule change without waiting for its poll', async () => {
    const registry = new BackgroundWork();
    registry.job({ name: 'Woken', schedule: '@daily', description: '', run: async (run) => run.success() });
    const runtime = await startTestRuntime(db.url, registry, { pollMillis: 60_000 });
    try {
      await sleep(300);
      const started = Date.now();
      await db.pool.query("UPDATE scheduled_jobs SET next_run_at = now() WHERE name = 'Woken'");
      await finished('Woken');
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await runtime.stop();
    }
  });
});

describe('stopping', () => {
  it('lets a cooperative run end STOPPED and marks a stuck run STOPPED, releasing the leases', async () => {
    const registry = new BackgroundWork();
    let started = 0;
    await dueNow(registry, {
      name: 'Cooperative',
      schedule: '@hourly',
      description: '',
      async run(run) {
        started += 1;
        await new Promise<void>((resolve, reject) => run.signal.addEventListener('abort', () => reject(new Error('stopped by signal')), { once: true }));
      },
    });
    await dueNow(registry, {
      name: 'Stuck',
      schedule: '@hourly',
      description: '',
      async run() {
        started += 1;
        await sleep(6_000);
      },
    });
    const runtime = await startTestRuntime(db.url, registry, { stopGraceMillis: 500 });
    await eventually(async () => (started === 2 ? true : undefined));
    await runtime.stop();
    const rows = (await db.pool.query<{ name: string; status: string; details: { errors: string[] } }>('SELECT name, status, details FROM job_history ORDER BY name')).rows;
    expect(rows.map((row) => [row.name, row.status])).toEqual([['Cooperative', 'STOPPED'], ['Stuck', 'STOPPED']]);
    expect(rows[1]?.details.errors).toEqual(['the instance was shut down before the run finished']);
    expect((await db.pool.query('SELECT 1 FROM scheduled_jobs WHERE lease_owner IS NOT NULL')).rowCount).toBe(0);
    expect((await db.pool.query('SELECT 1 FROM job_instances')).rowCount).toBe(0);
  });
});
