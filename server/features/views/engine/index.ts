import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { AppContext } from '../../../platform/context';
import { inOrganizationOf } from '../../../platform/db/tenant';
import { backgroundWork } from '../../../platform/jobs/registry';
import { addDynamicRelations, removeDynamicRelations } from '../../../postgrest/schema';
import { cacheRules, columnsOf, hasTable, loadView, refresh, refreshRow, sortColumnOf } from './refresh';
import { forgetRelations, viewRelationProvider } from './relation';
import { viewEngineRoutes } from './routes';
import { variableSpecs } from './service';
import { dropTable, ensureTable, viewTableName } from './table';
import { fingerprintOf, resolveVariables, selections } from './variables';

/**
 * The views engine (docs/VIEWS.md): materialises views into their tables, answers /api/view/…, serves
 * the tables through /api/db, and refreshes stale views in the background.
 */

/**
 * Call after a view is saved or deleted, in the saving transaction: (re)creates its table when its
 * columns changed, or drops it (and its refreshes) when the view is deleted or has no table.
 */
export async function onViewSaved(client: pg.PoolClient, viewId: string): Promise<void> {
  forgetRelations();
  const view = await loadView(client, viewId);
  if (!view) return;
  const table = viewTableName(view.namespace, view.name);
  if (view.deleted_at || !hasTable(view.spec)) {
    await dropTable(client, table);
    await client.query('DELETE FROM view_refreshes WHERE view_id = $1', [viewId]);
    return;
  }
  const recreated = await ensureTable(client, view.id, table, columnsOf(view.spec), sortColumnOf(view.spec));
  // A changed spec makes every variable set stale: the next request refreshes it.
  if (!recreated) await client.query('UPDATE view_refreshes SET refreshed_at = NULL WHERE view_id = $1', [viewId]);
}

/** Refreshes, for their default variables, the views whose rows are older than their maxAge. */
export async function refreshStaleViews(pool: pg.Pool, onView: (outcome: { view: string; error?: string; rows: number }) => void): Promise<void> {
  const { rows } = await pool.query<{ id: string; organization_id: string | null }>('SELECT id, organization_id FROM views WHERE deleted_at IS NULL ORDER BY namespace, name');
  for (const { id, organization_id: organizationId } of rows) {
    // Each view refreshes in its organization's scope: its queries read that organization's rows only.
    await inOrganizationOf(organizationId, () => refreshIfStale(pool, id, onView));
  }
}

async function refreshIfStale(pool: pg.Pool, id: string, onView: (outcome: { view: string; error?: string; rows: number }) => void): Promise<void> {
  const view = await loadView(pool, id);
  if (!view || view.deleted_at) return;
  const label = `${view.namespace}/${view.name}`;
  try {
    const variables = await resolveVariables(pool, variableSpecs(view.spec), {});
    const fingerprint = fingerprintOf(selections(variables));
    const last = await refreshRow(pool, view.id, fingerprint);
    const rules = cacheRules(view.spec);
    if (last?.refreshed_at && Date.now() - last.refreshed_at.getTime() <= rules.maxAgeMs) return;
    if (last?.error && last.attempted_at && Date.now() - last.attempted_at.getTime() < rules.maxAgeMs) return;
    const outcome = await refresh(pool, view, variables, fingerprint);
    if (outcome) onView({ view: label, rows: outcome.rowCount, ...(outcome.error ? { error: outcome.error } : {}) });
  } catch (error) {
    onView({ view: label, rows: 0, error: error instanceof Error ? error.message : String(error) });
  }
}

/** Registers the engine's routes, its /api/db relations and its background job (the views feature calls it). */
export function registerViewEngine(app: FastifyInstance, ctx: AppContext): void {
  viewEngineRoutes(app, ctx);
  // The provider reads this app's pool: closing the app removes it, so a later app in the same process
  // (the integration tests build one per file) never asks an ended pool.
  const relations = viewRelationProvider(ctx.pool);
  addDynamicRelations(relations);
  app.addHook('onClose', async () => removeDynamicRelations(relations));
  backgroundWork.job({
    name: 'View refresh',
    schedule: '@every 1m',
    description: "Refreshes the views whose rows are older than their cache.maxAge (default 15m), for their default variables",
    run: async (run) => {
      await refreshStaleViews(run.pool, (outcome) => {
        if (outcome.error) run.error(`${outcome.view}: ${outcome.error}`);
        else run.success(1);
      });
    },
  });
}
