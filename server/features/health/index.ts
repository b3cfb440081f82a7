import type { Feature } from '../../platform/context';
import { backgroundWork, resourceScheduledTable } from '../../platform/jobs';
import { healthApi } from './api';
import { canaryKind } from './canary-kind';
import { canaryKubeKind } from './kube-kind';
import { applyDemo } from './demo';
import { checkRollupRetentionJob, checkStatusPartitionsJob, checkStatusRetentionJob, ensurePartitionsAtStart } from './retention';
import { checkMetricsOf } from './check-metrics';
import { runCanary } from './run-canary';
import { webhookRoutes } from './webhook';

export { checksSummary } from './summary';
export { deleteCanary, saveCanary } from './canaries';
export { CHECK_STATUS_RETENTION } from './retention';
export { canaryKind } from './canary-kind';
export { applyDemo } from './demo';
export { runCanary } from './run-canary';

/** Canaries run as scheduled rows: each slot once across all instances, a canary never overlapping itself. */
export const canariesTable = resourceScheduledTable('canaries');

/** How late another instance claims a canary's slot when the canary's own instance has not (under the 1 s lead). */
export const CANARY_CLAIM_GRACE_MILLIS = 300;

/**
 * Health checks (spec §1, §2 Health, §7 Health): canaries in the canary-checker format, their checks run on
 * schedule, results with rollups, and the /api/canary endpoints. Canary runs are recorded in job history
 * only when they have problems (a check that cannot run): the results themselves are the history.
 */
export const healthFeature: Feature = {
  name: 'health',
  kinds: [canaryKind],
  kubeKinds: [canaryKubeKind],
  async register(app, ctx) {
    await healthApi(app, ctx);
    // Its own scope: the webhook reads any content type as text, unlike the rest of the API.
    await app.register(async (scope) => webhookRoutes(scope, ctx));
    backgroundWork
      .rows({
        name: 'Canary',
        table: canariesTable,
        resourceType: 'canary',
        // A run waits for its checks' instants within the slot (check-times.ts): mostly idle, so many at once.
        concurrency: 1000,
        // Several instances share the canaries evenly (docs/OPERATIONS.md "Several instances"); one whose
        // instance is stopping or gone is taken by another this late, still before its first check (the lead, check-times.ts).
        share: { graceMillis: CANARY_CLAIM_GRACE_MILLIS },
        history: 'problems',
        run: async (row, run) => {
          await runCanary({ pool: run.pool, log: run.log, metrics: checkMetricsOf(ctx.metrics.registry) }, row.id, run.signal, { job: run, slot: { at: row.scheduledFor, schedule: row.schedule } });
        },
      })
      .job(checkStatusRetentionJob())
      .job(checkStatusPartitionsJob())
      .job(checkRollupRetentionJob());
  },
  async start(ctx) {
    // The daily partitions of check_statuses ahead (the CheckStatusPartitions job makes them every day too).
    await ensurePartitionsAtStart(ctx.pool, ctx.log);
    return async () => undefined;
  },
  async demo(ctx) {
    return `${await applyDemo(ctx)} demo canaries in the namespace "demo" (first results within seconds, then every 30 s)`;
  },
};
