import type { Queryable } from './db';
import type { BackgroundWork, SystemJob } from './registry';
import { RowWorker } from './row-worker';
import { firstRunAt } from './schedule';
import { defineScheduledTable } from './scheduled-table';
import type { WorkerContext } from './runtime-types';

/** System jobs use the same claim helper as feature tables, over their own table. */
export const SCHEDULED_JOBS = defineScheduledTable({
  table: 'scheduled_jobs',
  id: 'name',
  schedule: 'schedule',
  nextRunAt: 'next_run_at',
  leaseOwner: 'lease_owner',
  leaseUntil: 'lease_until',
  lastRunAt: 'last_run_at',
  enabled: 'enabled',
});

/** Concurrent system jobs per instance; they are few and mostly housekeeping. */
const SYSTEM_JOB_CONCURRENCY = 4;

/**
 * Makes sure the job has its row. A new job starts at its first slot. When the code's default schedule
 * changed, the row takes it (and a new first slot); otherwise an operator's schedule and `enabled` stay.
 */
export async function syncSystemJob(db: Queryable, job: SystemJob): Promise<void> {
  await db.query(
    `INSERT INTO scheduled_jobs AS s (name, description, schedule, default_schedule, next_run_at)
     VALUES ($1, $2, $3, $3, $4)
     ON CONFLICT (name) DO UPDATE
       SET description = EXCLUDED.description,
           schedule = CASE WHEN s.default_schedule = EXCLUDED.default_schedule THEN s.schedule ELSE EXCLUDED.schedule END,
           next_run_at = CASE WHEN s.default_schedule = EXCLUDED.default_schedule THEN s.next_run_at ELSE EXCLUDED.next_run_at END,
           default_schedule = EXCLUDED.default_schedule
     WHERE s.description IS DISTINCT FROM EXCLUDED.description OR s.default_schedule IS DISTINCT FROM EXCLUDED.default_schedule`,
    [job.name, job.description, job.schedule, firstRunAt(job.schedule)],
  );
}

/** The scheduler of system jobs: claims due rows of scheduled_jobs that this process has code for. */
export function systemJobWorker(ctx: WorkerContext, registry: BackgroundWork): RowWorker {
  return new RowWorker(ctx, {
    jobName: (row) => row.id,
    table: SCHEDULED_JOBS,
    concurrency: SYSTEM_JOB_CONCURRENCY,
    onlyIds: () => registry.systemJobs().map((job) => job.name),
    async run(row, run) {
      const job = registry.systemJob(row.id);
      if (!job) return run.skip('no code for this job in this instance');
      await job.run(run);
    },
  });
}
