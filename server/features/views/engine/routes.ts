import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../../platform/context';
import { isRecord } from '../../../platform/errors';
import { AppError, ValidationError } from '../../../platform/http/errors';
import { route } from '../../../platform/http/route';
import { interpolate } from '../../../platform/expressions';
import type { Actor } from '../../../platform/auth/types';
import { assertReadsSomeView, assertReadsView, mayReadView } from './access';
import { configsStatement } from './queries';
import { loadView } from './refresh';
import { answerView } from './service';
import { VariableProblem } from './variables';

const tag = 'views';
const uuid = z.string().uuid('must be a UUID');
/**
 * Each route decides for the view it serves (RBAC `views` read, for that view): a permission selecting
 * views by name or namespace allows or denies exactly those (access.ts).
 */
const access = 'authenticated' as const;

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
    handler: async ({ params, body, req }) => {
      assertReadsSomeView(req.actor);
      const view = await loadView(pool, params.id);
      if (!view || view.deleted_at) throw new AppError('not_found', `view ${params.id} not found`);
      assertReadsView(req.actor, view);
      try {
        return await answerView(pool, view, body?.variables ?? {}, body?.refresh ?? false);
      } catch (error) {
        if (error instanceof VariableProblem) throw new ValidationError([{ path: error.path, message: error.message.slice(error.path.length + 2) }]);
        throw error;
      }
    },
  });

  const byName = async (actor: Actor | undefined, namespace: string, name: string) => {
    assertReadsSomeView(actor);
    const { rows } = await pool.query<{ id: string; name: string; namespace: string }>('SELECT id, name, namespace FROM views WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL', [namespace, name]);
    if (!rows[0]) throw new AppError('not_found', `view ${namespace}/${name} not found`);
    assertReadsView(actor, rows[0]);
    return { id: rows[0].id };
  };

  route(app, {
    method: 'GET',
    url: '/api/view/by-name/:namespace/:name',
    summary: 'The id of the view namespace/name',
    tags: [tag],
    access,
    params: z.object({ namespace: z.string().min(1), name: z.string().min(1) }),
    handler: ({ params, req }) => byName(req.actor, params.namespace, params.name),
  });

  route(app, {
    method: 'GET',
    url: '/api/view/by-name/:name',
    summary: 'The id of the view default/name',
    tags: [tag],
    access,
    params: z.object({ name: z.string().min(1) }),
    handler: ({ params, req }) => byName(req.actor, 'default', params.name),
  });

  route(app, {
    method: 'GET',
    url: '/api/view/list',
    summary: 'Views shown as a tab on a catalog item (display.plugins[].configTab selects it), of those the caller may read',
    tags: [tag],
    access,
    query: z.object({ config_id: uuid }),
    handler: async ({ query, req }) => {
      const actor = assertReadsSomeView(req.actor);
      const { rows: items } = await pool.query<Record<string, unknown>>(
        'SELECT id, name, type, config_class, status, health, description, tags, labels, config, created_at, updated_at FROM config_items WHERE id = $1',
        [query.config_id],
      );
      const item = items[0];
      if (!item) throw new AppError('not_found', `config item ${query.config_id} not found`);
      const { rows } = await pool.query<{ id: string; name: string; namespace: string; title: string | null; icon: string | null; spec: Record<string, unknown> }>(
        "SELECT id, name, namespace, spec->'display'->>'title' AS title, spec->'display'->>'icon' AS icon, spec FROM views WHERE deleted_at IS NULL AND jsonb_typeof(spec->'display'->'plugins') = 'array' ORDER BY coalesce((spec->'display'->>'ordinal')::int, 0), name",
      );
      const out = [];
      for (const view of rows) {
        if (!mayReadView(actor, view)) continue;
        const plugins = isRecord(view.spec.display) && Array.isArray(view.spec.display.plugins) ? view.spec.display.plugins : [];
        for (const [index, plugin] of plugins.entries()) {
          if (!isRecord(plugin) || !isRecord(plugin.configTab)) continue;
          const statement = configsStatement({ ...plugin.configTab, limit: 1 }, false, ['r.id = $ITEM']);
          const text = statement.text.replace('$ITEM', `$${statement.values.length + 1}`);
          let shown = false;
          try {
            shown = (await pool.query(text, [...statement.values, query.config_id])).rows.length > 0;
          } catch {
            // A selector that does not read (a bad fieldSelector) shows the view nowhere.
          }
          if (!shown) continue;
          out.push({ id: view.id, name: view.name, namespace: view.namespace, title: view.title ?? view.name, icon: view.icon, variables: pluginVariables(plugin.variables, item, `display.plugins[${index}].variables`) });
          break;
        }
      }
      return out;
    },
  });
}

/**
 * A view tab's variables for one catalog item (display.plugins[].variables: name → `$(.config.name)`),
 * rendered over the item; a template that does not render leaves that variable to its default.
 */
function pluginVariables(variables: unknown, item: Record<string, unknown>, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(variables)) return out;
  for (const [key, template] of Object.entries(variables)) {
    if (typeof template !== 'string') continue;
    try {
      out[key] = interpolate(`${where}.${key}`, template, { config: item });
    } catch {
      // Not renderable for this item: the view's own default applies.
    }
  }
  return out;
}
