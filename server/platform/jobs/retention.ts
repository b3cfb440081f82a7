import { interval } from './db';
import type { JobRun } from './job-run';
import { readIntegerProperty, type IntegerProperty } from './properties';
import type { SystemJob } from './registry';

/** Rows deleted per statement: short transactions, so retention never blocks writers for long. */
export const RETENTION_BATCH_SIZE = 1000;

export const JOB_HISTORY_RETENTION: IntegerProperty = { name: 'job_history.retention_days', defaultValue: 30, min: 1, max: 3650 };
export const FAILED_EVENT_RETENTION: IntegerProperty = { name: 'event_queue.failed_retention_days', defaultValue: 7, min: 1, max: 3650 };

export interface RetentionTarget {
  property: IntegerProperty;
  /** DELETE … WHERE id IN (SELECT id … LIMIT $2) with $1 the retention interval; returns deleted ids. */
  deleteBatch: string;
  /** When one run cleans several tables: its figures go under this key of the summary. */
  summaryKey?: string;
}

export async function deleteInBatches(run: JobRun, target: RetentionTarget, batchSize: number): Promise<void> {
  const { value: days, problem } = await readIntegerProperty(run.pool, target.property);
  if (problem) run.warn(problem);
  let deleted = 0;
  let batches = 0;
  while (!run.signal.aborted) {
    const { rowCount } = await run.pool.query(target.deleteBatch, [interval(days * 86_400_000), batchSize]);
    const count = rowCount ?? 0;
    batches += 1;
    deleted += count;
    if (count < batchSize) break;
  }
  run.success(deleted);
  const figures = { deleted, batches, retention_days: days };
  run.summary(target.summaryKey ? { [target.summaryKey]: figures } : figures);
}

/** Deletes finished job_history rows older than `job_history.retention_days` (default 30). */
export function jobHistoryRetentionJob(batchSize = RETENTION_BATCH_SIZE): SystemJob {
  return {
    name: 'JobHistoryRetention',
    schedule: '@hourly',
    description: `Deletes finished job history older than the property ${JOB_HISTORY_RETENTION.name} (default ${JOB_HISTORY_RETENTION.defaultValue} days), ${batchSize} rows at a time.`,
    run: (run) =>
      deleteInBatches(
        run,
        {
          property: JOB_HISTORY_RETENTION,
          deleteBatch: `DELETE FROM job_history WHERE id IN (
                          SELECT id FROM job_history WHERE status <> 'RUNNING' AND time_start < now() - $1::interval LIMIT $2)`,
        },
        batchSize,
      ),
  };
}

/** Deletes events that ran out of attempts more than `event_queue.failed_retention_days` (default 7) ago. */
export function failedEventRetentionJob(batchSize = RETENTION_BATCH_SIZE): SystemJob {
  return {
    name: 'EventQueueFailedRetention',
    schedule: '@daily',
    description: `Deletes failed events whose last attempt is older than the property ${FAILED_EVENT_RETENTION.name} (default ${FAILED_EVENT_RETENTION.defaultValue} days), ${batchSize} rows at a time.`,
    run: (run) =>
      deleteInBatches(
        run,
        {
          property: FAILED_EVENT_RETENTION,
          deleteBatch: `DELETE FROM event_queue WHERE id IN (
                          SELECT id FROM event_queue
                           WHERE attempts >= max_attempts AND locked_by IS NULL AND last_attempt < now() - $1::interval
                           LIMIT $2)`,
        },
        batchSize,
      ),
  };
}
