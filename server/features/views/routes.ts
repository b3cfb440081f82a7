import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { specRowRoutes } from '../../platform/spec-rows';
import { checkViewSpec, viewSpecJsonSchema } from './spec';
import { saveView, viewTable } from './views';

const tag = 'views';

/**
 * /api/views (the settings editor saves: POST, PUT /{id}, DELETE /{id}), /api/views/schema and
 * /api/views/validate. Reads are /api/db views and views_summary; a view's rows are the engine's
 * POST /api/view/{id}.
 */
export async function viewRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { pool } = ctx;

  specRowRoutes(app, pool, {
    url: '/api/views',
    table: viewTable,
    access: 'views',
    tag,
    summary: 'a kind: View spec, checked whole (every problem by path), fields not run named in warnings',
    save: (client, input, options) => saveView(client, input, options),
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
    handler: ({ body }) => {
      if (body.spec === null || typeof body.spec !== 'object' || Array.isArray(body.spec)) return { errors: [{ path: 'spec', message: 'must be a mapping' }], warnings: [] };
      const { problems, checked } = checkViewSpec(body.spec as Record<string, unknown>);
      return { errors: problems, warnings: checked?.warnings ?? [] };
    },
  });
}
