import type { AppContext, Feature } from '../../platform/context';
import { backgroundWork } from '../../platform/jobs/registry';
import { newInstanceId } from '../../platform/jobs/instance';
import { secretStore } from '../../platform/secrets';
import { actionExecutors } from './actions';
import { playbookKind } from './playbooks';
import { playbookRoutes } from './routes';
import { PlaybookRunner, type RunnerOptions } from './runner';
import { handleTriggerEvent, TRIGGER_EVENTS } from './triggers';

/** The runner of an app, made by `start` (tests and the bench make their own with other options). */
export function createRunner(ctx: Pick<AppContext, 'pool' | 'log' | 'config'>, options: Partial<RunnerOptions> = {}): PlaybookRunner {
  return new PlaybookRunner(ctx.pool, ctx.log.child({ component: 'playbooks' }), {
    instanceId: newInstanceId(),
    executors: actionExecutors,
    secrets: secretStore(ctx.pool),
    dataDir: ctx.config.dataDir,
    ...options,
  });
}

/**
 * Playbooks (spec §2 /playbooks, §3 Playbook and runs, §6 playbooks and playbook_runs, §7 Playbooks;
 * docs/PLAYBOOKS.md): the kind `Playbook`, the API, the `playbooks` event consumer that runs event
 * triggers, and the runner every instance starts.
 */
export const playbooksFeature: Feature = {
  name: 'playbooks',
  kinds: [playbookKind],
  async register(app, ctx) {
    await playbookRoutes(app, ctx);
    const log = ctx.log.child({ component: 'playbooks' });
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
