import type { AppContext, Feature } from '../../platform/context';
import { backgroundWork, type ScheduledRows } from '../../platform/jobs/registry';
import { newInstanceId } from '../../platform/jobs/instance';
import { secretStore } from '../../platform/secrets';
import { actionExecutors } from './actions';
import { playbookKind } from './playbooks';
import { playbookKubeKind } from './kube-kind';
import { playbookRoutes } from './routes';
import { PlaybookRunner, type RunnerOptions } from './runner';
import { handleTriggerEvent, TRIGGER_EVENTS } from './triggers';
import { createRun } from './runs';
import { inTransaction } from '../../platform/jobs/db';
import { defineScheduledTable } from '../../platform/jobs/scheduled-table';

// What the agents feature uses to run an action upstream gives an agent (runsOn; docs/AGENTS.md).
export { AGENT_INPUT_VERSION, isAgentActionInput, prepareAction, type AgentActionInput, type EnvDefinition } from './remote';
export { RUNS_CHANNEL } from './runs';
export { createRun, loadPlaybook } from './runs';
export { checkPlaybookSpec, type ParameterSpec, type PlaybookSpec } from './spec';
export { exclusionOf, loadTarget, targetOf } from './targets';
export { actionExecutors } from './actions';
export type { ActionExecutors, ActionOutcome } from './actions/types';
export type { ActionSpec } from './spec';
export type { PlaybookRunner } from './runner';

/** Finished runs are kept this long. */
const RUN_RETENTION_DAYS = 30;

/** spec.on.schedule rows (migration 0019), claimed once per slot across instances. */
const schedulesTable = defineScheduledTable({
  table: 'playbook_schedules',
  id: 'id',
  name: 'name',
  schedule: 'schedule',
  nextRunAt: 'next_run_at',
  leaseOwner: 'lease_owner',
  leaseUntil: 'lease_until',
  lastRunAt: 'last_run_at',
  deletedAt: 'deleted_at',
});

/** The runner of an app, made by `start` (tests and the bench make their own with other options). */
export function createRunner(ctx: Pick<AppContext, 'pool' | 'log' | 'config'>, options: Partial<RunnerOptions> = {}): PlaybookRunner {
  return new PlaybookRunner(ctx.pool, ctx.log.child({ component: 'playbooks' }), {
    instanceId: newInstanceId(),
    executors: actionExecutors,
    secrets: secretStore(ctx.pool),
    dataDir: ctx.config.dataDir,
    // Running as an agent: `runsOn: [its own name]` runs here (docs/AGENTS.md).
    agentName: ctx.config.upstream?.agentName,
    ...options,
  });
}

/** spec.on.schedule: each due slot of a schedule row starts one run (parameters from their defaults). */
export function scheduleRows(ctx: Pick<AppContext, 'pool' | 'log'>): ScheduledRows {
  const log = ctx.log.child({ component: 'playbooks' });
  return {
    name: 'Playbook schedule',
    table: schedulesTable,
    concurrency: 2,
    history: 'problems',
    run: async (row, run) => {
      const { rows } = await ctx.pool.query<{ playbook_id: string }>(
        'SELECT s.playbook_id FROM playbook_schedules s JOIN playbooks p ON p.id = s.playbook_id AND p.deleted_at IS NULL WHERE s.id = $1',
        [row.id],
      );
      const playbookId = rows[0]?.playbook_id;
      if (!playbookId) return run.success(0);
      const created = await inTransaction(ctx.pool, (client) =>
        createRun(client, secretStore(ctx.pool), { playbookId, request: { trigger: 'schedule', schedule: row.schedule, slot: row.scheduledFor.toISOString() } }),
      );
      run.success(1);
      log.debug({ run: created.id, playbook: playbookId }, 'scheduled playbook run');
    },
  };
}

/**
 * Playbooks (spec §2 /playbooks, §3 Playbook and runs, §6 playbooks and playbook_runs, §7 Playbooks;
 * docs/PLAYBOOKS.md): the kind `Playbook`, the API, the `playbooks` event consumer that runs event
 * triggers, and the runner every instance starts.
 */
export const playbooksFeature: Feature = {
  name: 'playbooks',
  kinds: [playbookKind],
  kubeKinds: [playbookKubeKind],
  async register(app, ctx) {
    await playbookRoutes(app, ctx);
    const log = ctx.log.child({ component: 'playbooks' });
    backgroundWork.rows(scheduleRows(ctx));
    backgroundWork.job({
      name: 'Playbook run retention',
      schedule: '@daily',
      description: `Deletes playbook runs that ended more than ${RUN_RETENTION_DAYS} days ago (their actions, artifacts and approvals with them), in batches`,
      async run(job) {
        let deleted = 0;
        for (;;) {
          const { rowCount } = await ctx.pool.query(
            `DELETE FROM playbook_runs WHERE id IN (
               SELECT id FROM playbook_runs WHERE end_time < now() - make_interval(days => $1) AND status IN ('completed', 'failed', 'cancelled', 'timed_out') LIMIT 2000)`,
            [RUN_RETENTION_DAYS],
          );
          deleted += rowCount ?? 0;
          if (!rowCount) break;
        }
        job.success(deleted);
      },
    });
    backgroundWork.consumer({
      name: 'playbooks',
      events: TRIGGER_EVENTS,
      batchSize: 50,
      maxAttempts: 3,
      handler: async (event) => {
        await handleTriggerEvent(ctx.pool, secretStore(ctx.pool), log, event);
      },
    });
  },
  async start(ctx) {
    const runner = createRunner(ctx);
    await runner.start();
    return () => runner.stop();
  },
};
