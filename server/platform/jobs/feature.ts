import type { AppContext, Feature } from '../context';
import { backgroundWork } from './registry';
import { failedEventRetentionJob, jobHistoryRetentionJob } from './retention';
import { startBackgroundWork } from './runtime';

/**
 * Runs the background work of `serve`: the platform's own retention jobs plus every job, scheduled table
 * and event consumer other features registered on `backgroundWork`.
 */
export const platformJobsFeature: Feature = {
  name: 'platform-jobs',
  register() {
    backgroundWork.job(jobHistoryRetentionJob()).job(failedEventRetentionJob());
  },
  async start(ctx: AppContext) {
    const runtime = await startBackgroundWork({ pool: ctx.pool, log: ctx.log, metrics: ctx.metrics }, backgroundWork);
    return () => runtime.stop();
  },
};
