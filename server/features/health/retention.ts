import type { IntegerProperty } from '../../platform/jobs/properties';
import type { SystemJob } from '../../platform/jobs/registry';
import { deleteInBatches, RETENTION_BATCH_SIZE } from '../../platform/jobs/retention';

/** Raw results (issue: default 30 days), hourly rollups (they answer ranges up to 3 days) and daily rollups (years). */
export const CHECK_STATUS_RETENTION: IntegerProperty = { name: 'check_statuses.retention_days', defaultValue: 30, min: 1, max: 3650 };
/** 10-minute rollups answer ranges of up to a day that start within the last 47 hours. */
export const TEN_MINUTE_ROLLUP_RETENTION: IntegerProperty = { name: 'check_rollups_10m.retention_days', defaultValue: 2, min: 2, max: 30 };
export const HOURLY_ROLLUP_RETENTION: IntegerProperty = { name: 'check_rollups_hourly.retention_days', defaultValue: 7, min: 4, max: 365 };
export const DAILY_ROLLUP_RETENTION: IntegerProperty = { name: 'check_rollups_daily.retention_days', defaultValue: 1830, min: 31, max: 36500 };

export function checkStatusRetentionJob(): SystemJob {
  return {
    name: 'CheckStatusRetention',
    schedule: '@hourly',
    description: `Deletes raw check results older than the property ${CHECK_STATUS_RETENTION.name} (default ${CHECK_STATUS_RETENTION.defaultValue} days), ${RETENTION_BATCH_SIZE} at a time; rollups keep the statistics.`,
    run: (run) =>
      deleteInBatches(
        run,
        {
          property: CHECK_STATUS_RETENTION,
          deleteBatch: `DELETE FROM check_statuses WHERE (check_id, time) IN (
                          SELECT check_id, time FROM check_statuses WHERE time < now() - $1::interval LIMIT $2)`,
        },
        RETENTION_BATCH_SIZE,
      ),
  };
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
