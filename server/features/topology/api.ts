import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../platform/auth/types';
import { assertSpecCapabilities } from '../../platform/auth/capabilities';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { decide } from '../../platform/auth/decide';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { inTransaction } from '../../platform/jobs/db';
import { runJob } from '../../platform/jobs/job-run';
import { ComponentNotFound, readTopology } from './read';
import { runTopology, TopologyNotFound, type TopologyRunSummary } from './run';
import { parseTopologySpec } from './spec';
import { deleteTopology, saveTopology, TopologyInvalid } from './topologies';
import { assertDeletable } from '../../platform/deletable';
import { resourceName, resourceNamespace } from '../../platform/names';

const uuid = z.string().uuid('must be a UUID');

/** job_history name of every topology run (scheduled or Run Now), resource type topology. */
export const TOPOLOGY_JOB = 'Topology';

const list = z
  .string()
  .optional()
  .transform((value) => (value ? value.split(',').map((item) => item.trim()).filter(Boolean) : undefined));
const yes = z
  .enum(['true', 'false', 'yes', 'no', '1', '0'], { message: 'must be true or false' })
  .optional()
  .transform((value) => value === 'true' || value === 'yes' || value === '1');

const topologyQuery = z.object({
  id: uuid.optional(),
  depth: z.coerce.number({ message: 'must be a number from 0 to 10' }).int('must be a number from 0 to 10').min(0, 'must be a number from 0 to 10').max(10, 'must be a number from 0 to 10').optional(),
  status: list,
  health: list,
  type: list,
  owner: z.string().optional(),
  labels: z.string().optional(),
  hidden: yes,
  sortBy: z.enum(['health', 'name'], { message: 'must be health or name' }).optional(),
});

const topologyBody = z.object({
  name: resourceName,
  namespace: resourceNamespace.default('default'),
  labels: z.record(z.string(), z.string()).default({}),
  spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping with components, properties, schedule, …' }),
});

/** Spec §7 topology calls, the editor's save/validate/delete and Run Now. */
export function topologyApi(app: FastifyInstance, ctx: AppContext): void {
  const { pool, log } = ctx;
  const read = { resource: 'topologies', action: 'read' } as const;

  route(app, {
    method: 'GET',
    url: '/api/canary/api/topology',
    summary: 'The topology tree: the root components (or one component with its parents), children to a depth, live health roll-up, filters',
    tags: ['topology'],
    access: read,
    query: topologyQuery,
    handler: async ({ query }) => {
      try {
        return await readTopology(pool, {
          id: query.id,
          depth: query.depth ?? (query.id ? 2 : 1),
          health: query.health ?? query.status,
          type: query.type,
          owner: query.owner,
          labels: query.labels,
          hidden: query.hidden,
          sortBy: query.sortBy,
        });
      } catch (error) {
        if (error instanceof ComponentNotFound) throw new AppError('not_found', error.message);
        throw error;
      }
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/snapshot/topology/:id',
    summary: 'A downloadable snapshot of a component: its whole subtree with properties, health, checks and configs, as JSON',
    tags: ['topology'],
    access: read,
    params: z.object({ id: uuid }),
    handler: async ({ params, reply }) => {
      let answer;
      try {
        answer = await readTopology(pool, { id: params.id, depth: 10, hidden: true, sortBy: 'name', maxLinks: 10_000 });
      } catch (error) {
        if (error instanceof ComponentNotFound) throw new AppError('not_found', error.message);
        throw error;
      }
      const component = answer.components[0];
      const taken = new Date();
      const name = (component?.name ?? 'topology').replace(/[^A-Za-z0-9._-]+/g, '-');
      const stamp = taken.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
      reply.header('content-disposition', `attachment; filename="topology-${name}-${stamp}.json"`);
      return { snapshot_at: taken.toISOString(), parents: answer.parents, component };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/canary/topologies/validate',
    summary: 'Checks a topology spec without saving it: its errors (by path) and warnings',
    tags: ['topology'],
    access: read,
    body: z.object({ name: z.string().default('topology'), spec: z.unknown() }),
    handler: ({ body }) => {
      const parsed = parseTopologySpec(body.spec, body.name);
      return { errors: parsed.errors, warnings: parsed.warnings, schedule: parsed.schedule };
    },
  });

  const save = async (body: z.infer<typeof topologyBody>, actor: Actor | undefined, id?: string) => {
    const createdBy = actor?.id ?? '';
    // Capabilities (docs/SECURITY.md): code, server files, connections and SQL need their author to hold them.
    await assertSpecCapabilities(pool, actor, body.spec, body.namespace ?? 'default');
    try {
      return await inTransaction(pool, (client) => saveTopology(client, { ...body, source: 'UI', createdBy }, id ? { id } : { createOnly: true }));
    } catch (error) {
      if (error instanceof TopologyInvalid) throw new ValidationError(error.problems);
      throw error;
    }
  };

  route(app, {
    method: 'POST',
    url: '/api/canary/topologies',
    summary: 'Creates a topology (source UI); it runs at once',
    tags: ['topology'],
    access: { resource: 'topologies', action: 'create' },
    body: topologyBody,
    handler: async ({ body, req, reply }) => reply.status(201).send(await save(body, req.actor)),
  });

  route(app, {
    method: 'PUT',
    url: '/api/canary/topologies/:id',
    summary: 'Updates a topology created in the console (name and namespace stay, and may be left out); a changed spec runs at once',
    tags: ['topology'],
    access: { resource: 'topologies', action: 'update' },
    params: z.object({ id: uuid }),
    body: topologyBody.extend({ name: topologyBody.shape.name.optional(), namespace: z.string().trim().min(1).max(255).optional() }),
    handler: async ({ params, body, req }) => {
      const { rows } = await pool.query<{ name: string; namespace: string }>('SELECT name, namespace FROM topologies WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const current = rows[0];
      if (!current) throw new AppError('not_found', `topology ${params.id} not found`);
      const issues = [];
      if (body.name !== undefined && body.name !== current.name) issues.push({ path: 'body.name', message: 'cannot be changed once the topology exists' });
      if (body.namespace !== undefined && body.namespace !== current.namespace) issues.push({ path: 'body.namespace', message: 'cannot be changed once the topology exists' });
      if (issues.length > 0) throw new ValidationError(issues);
      return save({ ...body, name: current.name, namespace: current.namespace }, req.actor, params.id);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/canary/topologies/:id',
    summary: 'Deletes a topology created in the console, with its components',
    tags: ['topology'],
    access: { resource: 'topologies', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params, req }) => {
      await assertDeletable(pool, { table: 'topologies', id: params.id, noun: 'topology', resource: 'topologies', actor: req.actor });
      await deleteTopology(pool, params.id);
      return { message: 'success' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/canary/run/topology/:id',
    summary: 'Runs a topology now and answers the components it built (created, updated, unchanged, deleted; errors)',
    tags: ['topology'],
    access: { resource: 'topologies', action: 'update' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      const { rows } = await pool.query<{ name: string }>('SELECT name FROM topologies WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const topology = rows[0];
      if (!topology) throw new AppError('not_found', `topology ${params.id} not found`);
      let summary: TopologyRunSummary | undefined;
      let failure: unknown;
      const outcome = await runJob(
        { pool, log, metrics: ctx.metrics, instanceId: 'api' },
        { name: TOPOLOGY_JOB, resource: { type: 'topology', id: params.id, name: topology.name }, signal: AbortSignal.timeout(10 * 60_000) },
        async (run) => {
          try {
            summary = await runTopology(pool, params.id, { log: run.log, job: run, signal: run.signal });
          } catch (error) {
            failure = error;
            throw error;
          }
        },
      );
      if (failure instanceof TopologyNotFound) throw new AppError('not_found', failure.message);
      if (!summary) throw new AppError('internal_error', `the topology run failed; its job history (${outcome.historyId || 'not recorded'}) has the error`);
      return { ...summary, status: outcome.status, job_history_id: outcome.historyId };
    },
  });
}
