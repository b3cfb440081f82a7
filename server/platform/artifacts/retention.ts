import type { IntegerProperty } from '../jobs/properties';
import type { SystemJob } from '../jobs/registry';
import { deleteInBatches } from '../jobs/retention';

/**
 * Artifacts are large rows: fewer per statement than the 1000 of other retention jobs, so one batch never
 * holds a long transaction or a burst of WAL.
 */
export const ARTIFACT_RETENTION_BATCH_SIZE = 100;

/**
 * Deletes artifacts past their `expires_at`, soft-deleted ones, and check artifacts whose result is older
 * than the check history's retention (`checkRetention`, so shortening it takes the artifacts along even
 * though their expiry was set with the longer one), a batch at a time.
 */
export function artifactRetentionJob(checkRetention: IntegerProperty, batchSize = ARTIFACT_RETENTION_BATCH_SIZE): SystemJob {
  return {
    name: 'ArtifactRetention',
    schedule: '@hourly',
    description: `Deletes artifacts once they expire (with their check result: property ${checkRetention.name}, default ${checkRetention.defaultValue} days) or are deleted, ${batchSize} at a time.`,
    run: (run) =>
      deleteInBatches(
        run,
        {
          property: checkRetention,
          deleteBatch: `DELETE FROM artifacts WHERE id IN (
                          SELECT id FROM (
                            (SELECT id FROM artifacts WHERE expires_at <= now() LIMIT $2)
                            UNION (SELECT id FROM artifacts WHERE deleted_at IS NOT NULL LIMIT $2)
                            UNION (SELECT id FROM artifacts WHERE check_time < now() - $1::interval LIMIT $2)
                          ) due LIMIT $2)`,
        },
        batchSize,
      ),
  };
}
