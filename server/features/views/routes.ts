import { assertSpecCapabilities } from '../../platform/auth/capabilities';
import type { Actor } from '../../platform/auth/types';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { isRecord } from '../../platform/errors';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { inTransaction } from '../../platform/jobs/db';
import { SpecInvalid, type SpecRowInput } from '../../platform/spec-rows';
import { checkViewSpec, viewSpecJsonSchema } from './spec';
import { deleteView, saveView } from './views';
import { resourceName, resourceNamespace } from '../../platform/names';

const tag = 'views';
const uuid = z.string().uuid('must be a UUID');
const body = z.object({
  name: resourceName,
  namespace: resourceNamespace.default('default'),
  labels: z.record(z.string(), z.string()).default({}),
  spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping' }),
});

/**
 * /api/views (the settings editor saves: POST, PUT /{id}, DELETE /{id}, as specRowRoutes does for other
 * kinds, plus the engine's table made or dropped in the same transaction), /api/views/schema and
 * /api/views/validate. Reads are /api/db views and views_summary; a view's rows are the engine's
 * POST /api/view/{id}.
 */
export async function viewRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { pool } = ctx;

  const save = async (input: z.infer<typeof body>, actor: Actor | undefined, options: { id?: string; createOnly?: boolean }) => {
    const createdBy = actor?.id ?? '';
    // Capabilities (docs/SECURITY.md): a view's sql queries and connections need their author to hold them.
    await assertSpecCapabilities(pool, actor, input.spec, input.namespace);
    try {
      return await inTransaction(pool, (client: pg.PoolClient) => saveView(client, { ...input, source: 'UI', createdBy } satisfies SpecRowInput, options));
    } catch (error) {
      if (error instanceof SpecInvalid) throw new ValidationError(error.problems.map((problem) => ({ path: `body.${problem.path}`, message: problem.message })));
      throw error;
    }
  };

  route(app, {
    method: 'POST',
    url: '/api/views',
    summary: 'Creates a view: a kind: View spec, checked whole (every problem by path), fields not run named in warnings',
    tags: [tag],
    access: { resource: 'views', action: 'create' },
    body,
    handler: async ({ body: input, req, reply }) => reply.status(201).send(await save(input, req.actor, { createOnly: true })),
  });

  route(app, {
    method: 'PUT',
    url: '/api/views/:id',
    summary: 'Updates a view made in the console (name and namespace stay)',
    tags: [tag],
    access: { resource: 'views', action: 'update' },
    params: z.object({ id: uuid }),
    body: body.extend({ name: body.shape.name.optional(), namespace: z.string().trim().min(1).max(255).optional() }),
    handler: async ({ params, body: input, req }) => {
      const { rows } = await pool.query<{ name: string; namespace: string }>('SELECT name, namespace FROM views WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const current = rows[0];
      if (!current) throw new AppError('not_found', `view ${params.id} not found`);
      return save({ ...input, name: current.name, namespace: current.namespace }, req.actor, { id: params.id });
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/views/:id',
    summary: 'Deletes a view made in the console (and its table)',
    tags: [tag],
    access: { resource: 'views', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      await inTransaction(pool, (client: pg.PoolClient) => deleteView(client, params.id));
      return { message: 'success' };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/views/schema',
    summary: 'JSON schema of a View spec, for editors',
    tags: [tag],
    access: { resource: 'views', action: 'read' },
    handler: () => viewSpecJsonSchema(),
  });

  route(app, {
    method: 'POST',
    url: '/api/views/validate',
    summary: 'Checks a view spec without saving it: its errors (by path) and warnings',
    tags: [tag],
    access: { resource: 'views', action: 'read' },
    body: z.object({ spec: z.unknown() }),
    handler: ({ body: input }) => {
      if (!isRecord(input.spec)) return { errors: [{ path: 'spec', message: 'must be a mapping' }], warnings: [] };
      const { problems, checked } = checkViewSpec(input.spec);
      return { errors: problems, warnings: checked?.warnings ?? [] };
    },
  });
}
