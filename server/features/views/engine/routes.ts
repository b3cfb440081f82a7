import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../../platform/context';
import { isRecord } from '../../../platform/errors';
import { AppError, ValidationError } from '../../../platform/http/errors';
import { route } from '../../../platform/http/route';
import { configsStatement } from './queries';
import { loadView } from './refresh';
import { answerView } from './service';
import { VariableProblem } from './variables';

const tag = 'views';
const uuid = z.string().uuid('must be a UUID');
const access = { resource: 'views', action: 'read' } as const;

/** POST /api/view/:id, GET /api/view/by-name/…, GET /api/view/list (docs/VIEWS.md). */
export function viewEngineRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;

  route(app, {
    method: 'POST',
    url: '/api/view/:id',
    summary: "A view's rows (first 50), panels, variables and sections, from its table when fresh enough, else refreshed (up to cache.refreshTimeout)",
    tags: [tag],
    access,
    params: z.object({ id: uuid }),
    body: z.object({ variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(), refresh: z.boolean().optional() }).strict().optional(),
    handler: async ({ params, body }) => {
      const view = await loadView(pool, params.id);
      if (!view || view.deleted_at) throw new AppError('not_found', `view ${params.id} not found`);
      try {
        return await answerView(pool, view, body?.variables ?? {}, body?.refresh ?? false);
      } catch (error) {
        if (error instanceof VariableProblem) throw new ValidationError([{ path: error.path, message: error.message.slice(error.path.length + 2) }]);
        throw error;
      }
    },
  });

  const byName = async (namespace: string, name: string) => {
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM views WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL', [namespace, name]);
    if (!rows[0]) throw new AppError('not_found', `view ${namespace}/${name} not found`);
    return { id: rows[0].id };
  };

  route(app, {
    method: 'GET',
    url: '/api/view/by-name/:namespace/:name',
    summary: 'The id of the view namespace/name',
    tags: [tag],
    access,
    params: z.object({ namespace: z.string().min(1), name: z.string().min(1) }),
    handler: ({ params }) => byName(params.namespace, params.name),
  });

  route(app, {
    method: 'GET',
    url: '/api/view/by-name/:name',
    summary: 'The id of the view default/name',
    tags: [tag],
    access,
    params: z.object({ name: z.string().min(1) }),
    handler: ({ params }) => byName('default', params.name),
  });

  route(app, {
    method: 'GET',
    url: '/api/view/list',
    summary: 'Views shown as a tab on a catalog item (display.plugins[].configTab selects it)',
    tags: [tag],
    access,
    query: z.object({ config_id: uuid }),
    handler: async ({ query }) => {
      const { rows: items } = await pool.query('SELECT 1 FROM config_items WHERE id = $1', [query.config_id]);
      if (items.length === 0) throw new AppError('not_found', `config item ${query.config_id} not found`);
      const { rows } = await pool.query<{ id: string; name: string; namespace: string; title: string | null; icon: string | null; spec: Record<string, unknown> }>(
        "SELECT id, name, namespace, spec->'display'->>'title' AS title, spec->'display'->>'icon' AS icon, spec FROM views WHERE deleted_at IS NULL AND jsonb_typeof(spec->'display'->'plugins') = 'array' ORDER BY coalesce((spec->'display'->>'ordinal')::int, 0), name",
      );
      const out = [];
      for (const view of rows) {
        const plugins = isRecord(view.spec.display) && Array.isArray(view.spec.display.plugins) ? view.spec.display.plugins : [];
        let shown = false;
        for (const plugin of plugins) {
          if (!isRecord(plugin) || !isRecord(plugin.configTab)) continue;
          const statement = configsStatement({ ...plugin.configTab, limit: 1 }, false, [`r.id = '${query.config_id}'::uuid`]);
          try {
            if ((await pool.query(statement.text, statement.values)).rows.length > 0) shown = true;
          } catch {
            // A selector that does not read (a bad fieldSelector) shows the view nowhere.
          }
          if (shown) break;
        }
        if (shown) out.push({ id: view.id, name: view.name, namespace: view.namespace, title: view.title ?? view.name, icon: view.icon });
      }
      return out;
    },
  });
}
