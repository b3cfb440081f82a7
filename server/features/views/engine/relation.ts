import type pg from 'pg';
import { currentOrganization } from '../../../platform/db/tenant';
import type { RelationDef } from '../../../postgrest/registry';
import { relationInfo, type RelationInfo } from '../../../postgrest/schema';
import { columnsOf } from './refresh';
import { storedColumns, viewTableName } from './table';
import { viewTarget } from './access';

/**
 * /api/db/view_<namespace>_<name>: each view's table, readable with the view's columns, request_fingerprint
 * and agent_id by whoever may read that view (RBAC `views`, decided for the view: a permission selecting
 * views by name or namespace applies). Descriptions are cached per table name until the view changes here
 * (onViewSaved) or for a few seconds (another instance may have changed it).
 */

const TTL_MS = 5_000;
const cache = new Map<string, { at: number; info: RelationInfo | undefined }>();
const checking = new Map<string, Promise<RelationInfo | undefined>>();

/** Organizations sharing the database each see their own views (docs/HOSTED.md "Row-level security"). */
function cacheKey(name: string): string {
  return `${currentOrganization() ?? ''}/${name}`;
}

export function forgetRelations(): void {
  cache.clear();
}

async function describe(pool: pg.Pool, name: string): Promise<RelationInfo | undefined> {
  const { rows } = await pool.query<{ id: string; name: string; namespace: string; spec: Record<string, unknown> }>('SELECT id, name, namespace, spec FROM views WHERE deleted_at IS NULL');
  const view = rows.find((row) => viewTableName(row.namespace, row.name) === name);
  let info: RelationInfo | undefined;
  if (view) {
    const columns = storedColumns(columnsOf(view.spec));
    const keys = columns.filter((column) => column.primaryKey).map((column) => column.name);
    const def: RelationDef = {
      name,
      rbac: 'views',
      accessTarget: viewTarget(view),
      readable: [...columns.map((column) => column.name), 'request_fingerprint', 'agent_id'],
      primaryKey: ['request_fingerprint', ...keys],
    };
    info = await relationInfo(pool, def);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(cacheKey(name), { at: Date.now(), info });
  return info;
}

/** One description of `name` at a time, however many requests ask. */
function check(pool: pg.Pool, name: string): Promise<RelationInfo | undefined> {
  const key = cacheKey(name);
  const running = checking.get(key);
  if (running) return running;
  const work = describe(pool, name).finally(() => checking.delete(key));
  checking.set(key, work);
  return work;
}

/**
 * A page request never waits for the catalog once a table is known: past the TTL its description is
 * served as it is while it is checked again in the background. An unknown name is checked again when
 * asked past the TTL (a view saved on another instance appears within it).
 */
export function viewRelationProvider(pool: pg.Pool): (name: string) => Promise<RelationInfo | undefined> {
  return async (name) => {
    if (!name.startsWith('view_')) return undefined;
    const hit = cache.get(cacheKey(name));
    if (hit && Date.now() - hit.at < TTL_MS) return hit.info;
    if (hit?.info) {
      void check(pool, name).catch(() => undefined);
      return hit.info;
    }
    return check(pool, name);
  };
}
