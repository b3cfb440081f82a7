import type { Feature } from '../../platform/context';
import { agentRoutes } from './routes';
import { pullRoutes } from './pull/upstream';

export { agentFeature } from './agent';
export { installOutbox } from './agent/outbox';

/**
 * Agents, the upstream side (issue 23, spec §3 Agent, §7): POST /api/agent/push receives what agents
 * write, POST /api/agent/generate makes an agent and its token, DELETE /api/agent/{id} retires one.
 * The agent side (serve --upstream) is server/features/agents/agent/.
 */
export const agentsFeature: Feature = {
  name: 'agents',
  register(app, ctx) {
    agentRoutes(app, ctx);
    pullRoutes(app, ctx);
  },
};
