import type pg from 'pg';
import { messageOf } from '../../platform/errors';
import { interval, type Queryable } from '../../platform/jobs/db';
import { readIntegerProperty, type IntegerProperty } from '../../platform/jobs/properties';
import type { SystemJob } from '../../platform/jobs/registry';
import { deleteInBatches, RETENTION_BATCH_SIZE } from '../../platform/jobs/retention';
import type { Logger } from '../../platform/logger';
import { dropPartitionsBefore, ensurePartitions, PARTITION_DAYS_AHEAD } from './partitions';

/** Raw results (issue: default 30 days), hourly rollups (they answer ranges up to 3 days) and daily rollups (years). */
export const CHECK_STATUS_RETENTION: IntegerProperty = { name: 'check_statuses.retention_days', defaultValue: 30, min: 1, max: 3650 };
/** 10-minute rollups answer ranges of up to a day that start within the last 47 hours. */
export const TEN_MINUTE_ROLLUP_RETENTION: IntegerProperty = { name: 'check_rollups_10m.retention_days', defaultValue: 2, min: 2, max: 30 };
export const HOURLY_ROLLUP_RETENTION: IntegerProperty = { name: 'check_rollups_hourly.retention_days', defaultValue: 7, min: 4, max: 365 };
export const DAILY_ROLLUP_RETENTION: IntegerProperty = { name: 'check_rollups_daily.retention_days', defaultValue: 1830, min: 31, max: 36500 };

/**
 * Raw results go a whole UTC day at a time: the day's partition is dropped once the day's last instant is
 * older than the retention (so a result is kept from 30 to 31 days by default), which frees its space at
 * once and leaves no dead rows behind. Results in the default partition (of days that had no partition)
 * are deleted row by row, `batchSize` a statement, as soon as they pass the retention.
 */
export function checkStatusRetentionJob(batchSize = RETENTION_BATCH_SIZE): SystemJob {
  return {
    name: 'CheckStatusRetention',
    schedule: '@hourly',
    description: `Drops the daily partitions of raw check results whose UTC day is entirely older than the property ${CHECK_STATUS_RETENTION.name} (default ${CHECK_STATUS_RETENTION.defaultValue} days); older results in the default partition are deleted ${batchSize} at a time. Rollups keep the statistics.`,
    async run(run) {
      const { value: days, problem } = await readIntegerProperty(run.pool, CHECK_STATUS_RETENTION);
      if (problem) run.warn(problem);
      const { rows } = await run.pool.query<{ cutoff: Date }>('SELECT now() - $1::interval AS cutoff', [interval(days * 86_400_000)]);
      const cutoff = rows[0]?.cutoff ?? new Date(Date.now() - days * 86_400_000);
      const { dropped, skipped, lockedMs } = await dropPartitionsBefore(run.pool, cutoff, { signal: run.signal });
      for (const partition of skipped) run.warn(`partition check_history.${partition.name} not dropped (${partition.reason}); the next run tries again`);
      let deleted = 0;
      let batches = 0;
      while (!run.signal.aborted) {
        const { rowCount } = await run.pool.query(
          `DELETE FROM check_history.check_statuses_default WHERE (check_id, time) IN (
             SELECT check_id, time FROM check_history.check_statuses_default WHERE time < $1 LIMIT $2)`,
          [cutoff, batchSize],
        );
        batches += 1;
        deleted += rowCount ?? 0;
        if ((rowCount ?? 0) < batchSize) break;
      }
      run.success(dropped.length + deleted);
      run.summary({
        dropped_partitions: dropped.map((partition) => partition.name),
        dropped_bytes: dropped.reduce((sum, partition) => sum + partition.bytes, 0),
        dropped_rows_estimate: dropped.reduce((sum, partition) => sum + (partition.rowsEstimate ?? 0), 0),
        lock_ms: Math.round(lockedMs),
        deleted_from_default: deleted,
        batches,
        retention_days: days,
      });
    },
  };
}

/** The first instant the check history keeps. */
async function retentionStart(db: Queryable): Promise<Date> {
  const { value: days } = await readIntegerProperty(db, CHECK_STATUS_RETENTION);
  return new Date(Date.now() - days * 86_400_000);
}

/** Makes the daily partitions of check_statuses ahead, every day (and at start: `ensurePartitionsAtStart`). */
export function checkStatusPartitionsJob(): SystemJob {
  return {
    name: 'CheckStatusPartitions',
    schedule: '@daily',
    description: `Makes the daily partitions of raw check results for today and the next ${PARTITION_DAYS_AHEAD} days (UTC), and for past days within the retention whose results wait in the default partition.`,
    async run(run) {
      const made = await ensurePartitions(run.pool, { since: await retentionStart(run.pool) });
      run.success(made.length);
      run.summary({ made, days_ahead: PARTITION_DAYS_AHEAD });
    },
  };
}

/** At start: a server stopped for longer than the days made ahead gets today's partition before it writes. */
export async function ensurePartitionsAtStart(pool: pg.Pool, log: Logger): Promise<void> {
  try {
    const made = await ensurePartitions(pool, { since: await retentionStart(pool) });
    if (made.length > 0) log.info({ partitions: made }, `check history: made ${made.length} daily partition(s) of check_statuses`);
  } catch (error) {
    // Nothing is lost: a result of a day without its partition goes to the default partition meanwhile.
    log.warn({ err: messageOf(error) }, `check history: daily partitions not made at start (${messageOf(error)}); the CheckStatusPartitions job makes them`);
  }
}

export function checkRollupRetentionJob(): SystemJob {
  return {
    name: 'CheckRollupRetention',
    schedule: '@daily',
    description: `Deletes 10-minute check rollups older than ${TEN_MINUTE_ROLLUP_RETENTION.name} (default ${TEN_MINUTE_ROLLUP_RETENTION.defaultValue} days), hourly ones older than ${HOURLY_ROLLUP_RETENTION.name} (default ${HOURLY_ROLLUP_RETENTION.defaultValue} days) and daily ones older than ${DAILY_ROLLUP_RETENTION.name} (default ${DAILY_ROLLUP_RETENTION.defaultValue} days).`,
    async run(run) {
      // Rollups are cumulative: deleting old rows never changes the counts of later ranges.
      for (const [table, property] of [
        ['check_rollups_10m', TEN_MINUTE_ROLLUP_RETENTION],
        ['check_rollups_hourly', HOURLY_ROLLUP_RETENTION],
        ['check_rollups_daily', DAILY_ROLLUP_RETENTION],
      ] as const) {
        await deleteInBatches(
          run,
          {
            property,
            summaryKey: table,
            deleteBatch: `DELETE FROM ${table} WHERE (check_id, bucket) IN (SELECT check_id, bucket FROM ${table} WHERE bucket < now() - $1::interval LIMIT $2)`,
          },
          RETENTION_BATCH_SIZE,
        );
      }
    },
  };
}
