import type { Feature } from '../../../platform/context';
import { installOutbox, removeOutbox } from './outbox';
import { Pusher } from './pusher';
import { startPullWorker } from '../pull/agent';
import { agentStatusRoutes } from './status';

/**
 * The agent side of agents (docs/AGENTS.md): with `serve --upstream`, every change of a pushed table is
 * queued by triggers and pushed to the upstream console, loss-free. Without it, the triggers are dropped
 * at start, so a plain console pays nothing. GET /api/agent/status shows the queue and the last push.
 */
export const agentFeature: Feature = {
  name: 'agent',
  register(app, ctx) {
    agentStatusRoutes(app, ctx);
  },
  async start(ctx) {
    const upstream = ctx.config.upstream;
    if (!upstream) {
      if (await removeOutbox(ctx.pool)) ctx.log.info('not running as an agent: removed the agent push triggers');
      return async () => undefined;
    }
    const { refilled } = await installOutbox(ctx.pool, { upstream: upstream.url, agentName: upstream.agentName });
    if (refilled > 0) ctx.log.info({ rows: refilled, upstream: upstream.url }, `agent ${upstream.agentName}: queued ${refilled} existing row(s) for ${upstream.url}`);
    const pusher = new Pusher({ pool: ctx.pool, log: ctx.log, upstream });
    await pusher.start();
    ctx.log.info({ upstream: upstream.url, agent: upstream.agentName }, `running as agent ${upstream.agentName}, pushing to ${upstream.url}`);
    const puller = startPullWorker(ctx, upstream);
    return async () => {
      await puller.stop();
      await pusher.stop();
    };
  },
};
