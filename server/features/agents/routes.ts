import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { CAPABILITY_DESCRIPTIONS } from '../../../common/rbac';
import { CAPABILITY_REQUIRED, holdsCapability } from '../../platform/auth/capabilities';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { localAgentSummary } from './local';
import { applyPush, parsePush, PushRefused } from './push';
import { AGENT_NAME, agentOfRequest, defaultRotationGraceSeconds, deleteAgent, generateAgent, MAX_ROTATION_GRACE_SECONDS } from './service';

/** A push may carry up to 64 MB of JSON once decompressed (Content-Encoding: gzip is accepted). */
export const PUSH_BODY_LIMIT = 64 * 1024 * 1024;

const agentName = z
  .string({ message: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(63, 'must be at most 63 characters')
  .regex(AGENT_NAME, 'must be lower-case letters, digits, - or . (starting and ending with a letter or digit)');

/**
 * The agent routes of the upstream (issue 23, spec §7 /agent): the push an agent sends its rows with,
 * generate (an agent and its token) and delete. The agents list is /api/db/agents and /api/db/agents_summary.
 */
export function agentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;
  const defaultGrace = defaultRotationGraceSeconds();

  route(app, {
    method: 'POST',
    url: '/api/agent/push',
    summary: 'An agent pushes the rows it wrote (canaries, checks and statuses, configs and changes, relationships, job history): one transaction, idempotent by id; an empty push is a heartbeat',
    tags: ['agents'],
    access: 'self-checked',
    bodyLimit: PUSH_BODY_LIMIT,
    handler: async ({ req, reply }) => {
      try {
        const agent = await agentOfRequest(pool, req);
        const batch = parsePush(req.body);
        return await applyPush(pool, agent, batch);
      } catch (error) {
        if (error instanceof PushRefused) return reply.status(error.status).send(error.toBody());
        throw error;
      }
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/agent/generate',
    summary:
      'Creates an agent (or reuses the one of that name) and a new token scoped to agent-push; answers the token once, the command line and Helm values that start it. Needs write on agents and the capability agent_tokens; for an existing agent it rotates: the earlier tokens stop working after previousTokenGraceSeconds (default 300), answered as previousTokenValidUntil',
    tags: ['agents'],
    access: { resource: 'agents', action: 'create' },
    body: z.object({
      name: agentName,
      properties: z.record(z.string(), z.unknown(), { message: 'must be an object' }).optional(),
      description: z.string().max(1024).optional(),
      previousTokenGraceSeconds: z
        .number({ message: 'must be a number of seconds' })
        .int('must be a whole number of seconds')
        .min(0, 'must be 0 or more')
        .max(MAX_ROTATION_GRACE_SECONDS, `must be at most ${MAX_ROTATION_GRACE_SECONDS} (a day)`)
        .optional(),
    }),
    handler: async ({ body, req }) => {
      if (!req.actor) throw new AppError('unauthorized', 'sign in first');
      // Finding 6 of issue 35: a token of an agent is the agent (its runsOn actions, its pushes), so minting
      // one, for a new agent or an existing one, is the capability agent_tokens (admins; granted by a permission).
      if (!holdsCapability(req.actor, 'agent_tokens')) {
        const existing = await pool.query('SELECT 1 FROM agents WHERE name = $1 AND deleted_at IS NULL', [body.name]);
        const what = existing.rowCount ? `rotating the token of agent "${body.name}"` : `creating agent "${body.name}" (it mints the agent's token)`;
        throw new AppError(
          'forbidden',
          `${what} needs the capability "agent_tokens" (${CAPABILITY_DESCRIPTIONS.agent_tokens}); no role or permission of yours grants it: an admin grants a capability in Settings → Permissions`,
          { error: CAPABILITY_REQUIRED, capabilities: ['agent_tokens'], fields: [{ path: 'body.name', capability: 'agent_tokens' }] },
        );
      }
      const { previousTokenGraceSeconds, ...input } = body;
      return generateAgent(pool, input, { createdBy: req.actor.id, upstream: ctx.config.publicUrl, graceSeconds: previousTokenGraceSeconds ?? defaultGrace });
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/agent/local',
    summary:
      "The local agent (the nil uuid, this instance), which agents_summary leaves out, in an agents_summary row's shape: online, this server's version, and the counts of what this instance runs itself",
    tags: ['agents'],
    access: { resource: 'agents', action: 'read' },
    handler: () => localAgentSummary(pool),
  });

  route(app, {
    method: 'DELETE',
    url: '/api/agent/:id',
    summary: 'Deletes an agent (soft) and revokes its tokens; with cleanup=true also soft-deletes its canaries, checks, scrapers, config items, topologies and components (spec §4)',
    tags: ['agents'],
    access: { resource: 'agents', action: 'delete' },
    params: z.object({ id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID') }),
    query: z.object({
      cleanup: z
        .enum(['true', 'false'], { message: 'must be true or false' })
        .optional()
        .transform((value) => value === 'true'),
    }),
    handler: async ({ params, query }) => deleteAgent(pool, params.id, query.cleanup),
  });
}
