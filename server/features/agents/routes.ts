import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { applyPush, parsePush, PushRefused } from './push';
import { AGENT_NAME, agentOfRequest, deleteAgent, generateAgent } from './service';

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
    summary: 'Creates an agent (or reuses the one of that name) and a new token scoped to agent-push; answers the token once, the command line and Helm values that start it',
    tags: ['agents'],
    access: { resource: 'agents', action: 'create' },
    body: z.object({
      name: agentName,
      properties: z.record(z.string(), z.unknown(), { message: 'must be an object' }).optional(),
      description: z.string().max(1024).optional(),
    }),
    handler: async ({ body, req }) => {
      if (!req.actor) throw new AppError('unauthorized', 'sign in first');
      return generateAgent(pool, body, { createdBy: req.actor.id, upstream: ctx.config.publicUrl });
    },
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
