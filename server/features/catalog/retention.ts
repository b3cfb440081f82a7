import type { IntegerProperty } from '../../platform/jobs/properties';
import type { SystemJob } from '../../platform/jobs/registry';
import { deleteInBatches, RETENTION_BATCH_SIZE } from '../../platform/jobs/retention';

/** Config changes are kept 60 days (issue 5) unless the property says otherwise. */
export const CONFIG_CHANGE_RETENTION: IntegerProperty = { name: 'config_changes.retention_days', defaultValue: 60, min: 1, max: 3650 };

/** Deletes config changes older than the retention, a batch at a time, oldest first (the created_at index). */
export function configChangeRetentionJob(): SystemJob {
  return {
    name: 'ConfigChangeRetention',
    schedule: '@hourly',
    description: `Deletes config changes older than the property ${CONFIG_CHANGE_RETENTION.name} (default ${CONFIG_CHANGE_RETENTION.defaultValue} days), ${RETENTION_BATCH_SIZE} at a time.`,
    run: (run) =>
      deleteInBatches(
        run,
        {
          property: CONFIG_CHANGE_RETENTION,
          deleteBatch: `DELETE FROM config_changes WHERE id IN (
                          SELECT id FROM config_changes WHERE created_at < now() - $1::interval ORDER BY created_at LIMIT $2)`,
        },
        RETENTION_BATCH_SIZE,
      ),
  };
}
