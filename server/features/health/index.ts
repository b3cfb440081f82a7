import type { Feature } from '../../platform/context';
import { backgroundWork, resourceScheduledTable } from '../../platform/jobs';
import { healthApi } from './api';
import { canaryKind } from './canary-kind';
import { applyDemo } from './demo';
import { checkRollupRetentionJob, checkStatusRetentionJob } from './retention';
import { checkMetricsOf } from './check-metrics';
import { runCanary } from './run-canary';
import { webhookRoutes } from './webhook';

/** Canaries run as scheduled rows: each slot once across all instances, a canary never overlapping itself. */
export const canariesTable = resourceScheduledTable('canaries');

/**
 * Health checks (spec §1, §2 Health, §7 Health): canaries in the canary-checker format, their checks run on
 * schedule, results with rollups, and the /api/canary endpoints. Canary runs are recorded in job history
 * only when they have problems (a check that cannot run): the results themselves are the history.
 */
export const healthFeature: Feature = {
  name: 'health',
  kinds: [canaryKind],
  async register(app, ctx) {
    await healthApi(app, ctx);
    // Its own scope: the webhook reads any content type as text, unlike the rest of the API.
    await app.register(async (scope) => webhookRoutes(scope, ctx));
    backgroundWork
      .rows({
        name: 'Canary',
        table: canariesTable,
        resourceType: 'canary',
        concurrency: 20,
        history: 'problems',
        run: async (row, run) => {
          await runCanary({ pool: run.pool, log: run.log, metrics: checkMetricsOf(ctx.metrics.registry) }, row.id, run.signal, { job: run });
        },
      })
      .job(checkStatusRetentionJob())
      .job(checkRollupRetentionJob());
  },
  async demo(ctx) {
    return `${await applyDemo(ctx)} demo canaries in the namespace "demo" (first results within seconds, then every 30 s)`;
  },
};
