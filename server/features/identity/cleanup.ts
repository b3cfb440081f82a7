import type { SystemJob } from '../../platform/jobs/registry';

const BATCH = 1000;

/** Deletes what identity no longer needs, in batches: finished flows, ended sessions, old errors and counters. */
const TARGETS: Array<{ what: string; sql: string }> = [
  { what: 'flows', sql: "DELETE FROM selfservice_flows WHERE id IN (SELECT id FROM selfservice_flows WHERE expires_at < now() - interval '1 day' LIMIT $1)" },
  {
    what: 'sessions',
    sql: "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE (NOT active OR expires_at < now()) AND updated_at < now() - interval '30 days' LIMIT $1)",
  },
  { what: 'errors', sql: "DELETE FROM selfservice_errors WHERE id IN (SELECT id FROM selfservice_errors WHERE created_at < now() - interval '7 days' LIMIT $1)" },
  { what: 'rate_limits', sql: "DELETE FROM auth_rate_limits WHERE key IN (SELECT key FROM auth_rate_limits WHERE window_start < now() - interval '1 day' LIMIT $1)" },
];

export function identityCleanupJob(): SystemJob {
  return {
    name: 'IdentityCleanup',
    schedule: '@hourly',
    description: 'Deletes expired sign-in flows (after a day), ended sessions (after 30 days), flow errors (after 7 days) and old rate-limit counters.',
    async run(run) {
      const summary: Record<string, number> = {};
      for (const target of TARGETS) {
        let deleted = 0;
        while (!run.signal.aborted) {
          const { rowCount } = await run.pool.query(target.sql, [BATCH]);
          deleted += rowCount ?? 0;
          if ((rowCount ?? 0) < BATCH) break;
        }
        summary[target.what] = deleted;
        run.success(deleted);
      }
      run.summary(summary);
    },
  };
}
