import type pg from 'pg';
import { prepareArtifacts, storeArtifacts, type ArtifactInput, type PreparedArtifacts } from '../../platform/artifacts';
import { inTransaction } from '../../platform/jobs/db';
import { publish } from '../../platform/jobs/event-queue';
import { readIntegerProperty } from '../../platform/jobs/properties';
import { CHECK_STATUS_RETENTION } from './retention';

/** Bounded text, so one odd result cannot bloat the history. */
const MAX_TEXT = 4000;

export interface CheckResult {
  pass: boolean;
  invalid: boolean;
  /** When the run started. */
  time: Date;
  duration: number;
  message: string;
  error: string | null;
  details: Record<string, unknown> | null;
  /** Files the run left (exec `artifacts`), stored with the result and kept as long as it is. */
  artifacts?: ArtifactInput[];
}

export type Health = 'healthy' | 'unhealthy';

export function clip(value: string | null): string | null {
  return value === null ? null : value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

/** What the limits left out of a run's artifacts is said in the result's error, next to any other. */
function withNotes(error: string | null, notes: readonly string[]): string | null {
  return notes.length === 0 ? error : [error, ...notes].filter(Boolean).join(', ');
}

/**
 * Stores one result: the raw row (the rollups follow by trigger), its artifacts, the check's status and
 * last run, and on a change of health its transition time and a check.passed / check.failed event, in one
 * transaction. A first result that fails counts as a change (the check starts out presumed healthy).
 * Artifacts are keyed by the result (check_id, time) and expire with it (check_statuses.retention_days);
 * they are compressed before the transaction starts.
 */
export async function recordResult(pool: pg.Pool, checkId: string, result: CheckResult): Promise<{ status: Health; transitioned: boolean }> {
  const prepared: PreparedArtifacts | undefined = result.artifacts && result.artifacts.length > 0 ? await prepareArtifacts(result.artifacts) : undefined;
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ status: Health | null; canary_id: string; name: string; type: string; namespace: string; severity: string }>(
      'SELECT status, canary_id, name, type, namespace, severity FROM checks WHERE id = $1 FOR UPDATE',
      [checkId],
    );
    const check = rows[0];
    if (!check) throw new Error(`check ${checkId} no longer exists`);
    const status: Health = result.pass ? 'healthy' : 'unhealthy';
    const transitioned = (check.status ?? 'healthy') !== status;
    let error = result.error;
    if (prepared) {
      const { value: days } = await readIntegerProperty(client, CHECK_STATUS_RETENTION);
      const expiresAt = new Date(result.time.getTime() + days * 86_400_000);
      const stored = await storeArtifacts(client, { checkId, checkTime: result.time }, prepared, { expiresAt });
      error = withNotes(error, stored.notes);
    }
    await client.query(
      `INSERT INTO check_statuses (check_id, time, status, invalid, duration, message, error, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (check_id, time) DO NOTHING`,
      [checkId, result.time, result.pass, result.invalid, Math.max(0, Math.round(result.duration)), clip(result.message), clip(error), result.details ? JSON.stringify(result.details) : null],
    );
    await client.query(
      `UPDATE checks SET status = $2, last_runtime = greatest(last_runtime, $3),
         last_transition_time = CASE WHEN $4 THEN $3 ELSE last_transition_time END,
         last_pass = CASE WHEN $2 = 'healthy' THEN greatest(last_pass, $3) ELSE last_pass END,
         last_fail = CASE WHEN $2 = 'unhealthy' THEN greatest(last_fail, $3) ELSE last_fail END
       WHERE id = $1`,
      [checkId, status, result.time, transitioned],
    );
    if (transitioned) {
      await publish(client, result.pass ? 'check.passed' : 'check.failed', {
        id: checkId,
        check_id: checkId,
        canary_id: check.canary_id,
        name: check.name,
        type: check.type,
        namespace: check.namespace,
        severity: check.severity,
        status,
        message: clip(result.message),
        time: result.time.toISOString(),
        // null: the check's first result (a check starts out presumed healthy).
        previous: { status: check.status },
      });
    }
    return { status, transitioned };
  });
}
