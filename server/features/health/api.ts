import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../platform/auth/types';
import { assertSpecCapabilities } from '../../platform/auth/capabilities';
import { z } from 'zod';
import { canRunChecks } from '../../../common/rbac';
import type { AppContext } from '../../platform/context';
import { decide } from '../../platform/auth/decide';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { inTransaction } from '../../platform/jobs/db';
import { VERSION } from '../../platform/paths';
import { accessMap } from '../identity';
import { CanaryInvalid, deleteCanary, saveCanary } from './canaries';
import { canaryCheckerApi } from './canary-api';
import { healthPageApi } from './page-api';
import { aboutShape, runShape } from './canary-shape';
import { CHECK_TYPES } from './registry';
import { checkMetricsOf } from './check-metrics';
import { runCanary } from './run-canary';
import { canarySpecJsonSchema } from './schema';
import { parseCanarySpec } from './spec';
import { assertDeletable } from '../../platform/deletable';
import { resourceName, resourceNamespace } from '../../platform/names';

const uuid = z.uuid({ message: 'must be a UUID' });

const canaryBody = z.object({
  name: resourceName,
  namespace: resourceNamespace.default('default'),
  labels: z.record(z.string(), z.string()).default({}),
  spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping of check types and schedule' }),
});

/** /api/canary (spec §7 Health) and the canary editor's own endpoints. */
export async function healthApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { pool, log } = ctx;

  canaryCheckerApi(app, ctx);
  healthPageApi(app, ctx);

  route(app, {
    method: 'POST',
    url: '/api/canary/run/check/:id',
    summary: 'Run Now: runs one check at once and answers its result',
    tags: ['health'],
    access: 'authenticated',
    params: z.object({ id: uuid }),
    handler: async ({ params, req }) => {
      const actor = req.actor;
      if (!actor || !canRunChecks(actor.roles, accessMap(actor))) throw new AppError('forbidden', 'you may not run checks: Run Now needs the admin, editor, responder or commander role');
      const { rows } = await pool.query<{ canary_id: string; type: string; transformed_from: string | null; agent_name: string | null; name: string; namespace: string; description: string | null; labels: Record<string, string> | null }>(
        `SELECT c.canary_id, c.type, c.transformed_from, a.name AS agent_name, c.name, c.namespace, c.description, c.labels
           FROM checks c LEFT JOIN agents a ON a.id = c.agent_id AND c.agent_id <> '00000000-0000-0000-0000-000000000000'
          WHERE c.id = $1 AND c.deleted_at IS NULL`,
        [params.id],
      );
      const check = rows[0];
      if (!check) throw new AppError('not_found', `check ${params.id} not found`);
      if (check.agent_name !== null) throw new AppError('conflict', `this check runs on the agent "${check.agent_name}" on its schedule; it cannot be run from here`);
      if (check.transformed_from) throw new AppError('conflict', 'this check is made by a transform of another check: run that one');
      if (CHECK_TYPES.find((type) => type.type === check.type)?.push) throw new AppError('conflict', 'this check receives its results (webhook); it cannot be run');
      const runs = await runCanary({ pool, log, metrics: checkMetricsOf(ctx.metrics.registry) }, check.canary_id, AbortSignal.timeout(11 * 60_000), { onlyCheck: params.id });
      const ran = runs.find((run) => run.check.id === params.id);
      if (!ran) throw new AppError('not_found', `check ${params.id} not found`);
      const { result } = ran.outcome;
      return runShape({ check: { id: params.id, name: check.name, namespace: check.namespace, description: check.description, labels: check.labels }, result });
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/canary/about',
    summary: "What this server runs: canary-checker's Timestamp and Version, with our version and check types",
    tags: ['health'],
    access: { resource: 'canaries', action: 'read' },
    handler: () => aboutShape(VERSION, CHECK_TYPES.map((type) => ({ type: type.type, label: type.label, icon: type.icon, push: type.push }))),
  });

  route(app, {
    method: 'GET',
    url: '/api/canary/schema',
    summary: 'JSON schema of a Canary spec, for editors',
    tags: ['health'],
    access: { resource: 'canaries', action: 'read' },
    handler: () => canarySpecJsonSchema(),
  });

  route(app, {
    method: 'POST',
    url: '/api/canary/canaries/validate',
    summary: 'Checks a canary spec without saving it: its errors (by path) and warnings',
    tags: ['health'],
    access: { resource: 'canaries', action: 'read' },
    body: z.object({ namespace: z.string().default('default'), spec: z.unknown() }),
    handler: ({ body }) => {
      const parsed = parseCanarySpec(body.spec, { namespace: body.namespace });
      return { errors: parsed.errors, warnings: parsed.warnings, checks: parsed.checks.map((check) => ({ type: check.type, name: check.name, endpoint: check.endpoint })), schedule: parsed.schedule };
    },
  });

  const save = async (body: z.infer<typeof canaryBody>, actor: Actor | undefined, id?: string) => {
    const createdBy = actor?.id ?? '';
    // Capabilities (docs/SECURITY.md): code, server files, connections and SQL need their author to hold them.
    await assertSpecCapabilities(pool, actor, body.spec, body.namespace ?? 'default');
    try {
      return await inTransaction(pool, (client) => saveCanary(client, { ...body, source: 'UI', createdBy }, id ? { id } : { createOnly: true }));
    } catch (error) {
      if (error instanceof CanaryInvalid) throw new ValidationError(error.problems);
      throw error;
    }
  };

  route(app, {
    method: 'POST',
    url: '/api/canary/canaries',
    summary: 'Creates a canary (source UI)',
    tags: ['health'],
    access: { resource: 'canaries', action: 'create' },
    body: canaryBody,
    handler: async ({ body, req, reply }) => {
      const saved = await save(body, req.actor);
      return reply.status(201).send(saved);
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/canary/canaries/:id',
    summary: 'Updates a canary created in the console (name and namespace stay)',
    tags: ['health'],
    access: { resource: 'canaries', action: 'update' },
    params: z.object({ id: uuid }),
    body: canaryBody,
    handler: async ({ params, body, req }) => {
      const { rows } = await pool.query<{ name: string; namespace: string }>('SELECT name, namespace FROM canaries WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const current = rows[0];
      if (!current) throw new AppError('not_found', `canary ${params.id} not found`);
      // Spec §5: name and namespace cannot be edited once the resource exists.
      const issues = [];
      if (body.name !== current.name) issues.push({ path: 'body.name', message: 'cannot be changed once the canary exists' });
      if (body.namespace !== current.namespace) issues.push({ path: 'body.namespace', message: 'cannot be changed once the canary exists' });
      if (issues.length > 0) throw new ValidationError(issues);
      return save(body, req.actor, params.id);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/canary/canaries/:id',
    summary: 'Deletes a canary created in the console, with its checks',
    tags: ['health'],
    access: { resource: 'canaries', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params, req }) => {
      await assertDeletable(pool, { table: 'canaries', id: params.id, noun: 'canary', resource: 'canaries', actor: req.actor });
      await deleteCanary(pool, params.id);
      return { message: 'success' };
    },
  });
}
