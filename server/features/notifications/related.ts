import type pg from 'pg';
import type { Queryable } from '../../platform/jobs/db';
import { glob } from '../../platform/expressions/shared/k8s';
import type { EventResource } from './resource';
import type { StoredRule } from './stored-rule';

/** Resources related to an event's: the groupBy key that joins their messages, and the parents that inhibit them. */

/** Without a repeat interval, an inhibiting parent's message counts for this long. */
const INHIBIT_WINDOW_MILLIS = 60 * 60_000;

/**
 * A related resource (by config relationships and parents, or the component tree) of an inhibition's
 * `from` type whose message for this rule was sent or is on its way recently: it inhibits this one.
 */
export async function findInhibitor(pool: pg.Pool, rule: StoredRule, resource: EventResource): Promise<{ id: string; name: string; type: string | null } | undefined> {
  if (rule.inhibitions.length === 0 || (resource.kind !== 'config' && resource.kind !== 'component')) return undefined;
  for (const inhibition of rule.inhibitions) {
    if (!inhibition.to.some((type) => glob(type, resource.type ?? ''))) continue;
    const related = await relatedResources(pool, resource, inhibition.direction, inhibition.depth ?? 2);
    const candidates = related.filter((item) => glob(inhibition.from, item.type ?? ''));
    if (candidates.length === 0) continue;
    const { rows } = await pool.query<{ resource_id: string }>(
      `SELECT resource_id FROM notification_send_history
       WHERE notification_id = $1 AND resource_id = ANY($2::uuid[]) AND status IN ('sent', 'pending', 'evaluating-waitfor')
         AND created_at > now() - make_interval(secs => $3::float8 / 1000)
       ORDER BY created_at DESC LIMIT 1`,
      [rule.id, candidates.map((item) => item.id), Math.max(rule.repeatMillis, INHIBIT_WINDOW_MILLIS)],
    );
    const found = rows[0] && candidates.find((item) => item.id === rows[0]?.resource_id);
    if (found) return found;
  }
  return undefined;
}

/** The values a groupBy key reads from a resource (Mission Control's keys). */
function groupValue(key: string, resource: EventResource): string {
  if (key.startsWith('label:')) return resource.labels[key.slice(6)] ?? '';
  if (key.startsWith('tag:')) return resource.tags[key.slice(4)] ?? '';
  if (key === 'source_event') return '';
  if (key === 'check_id') return resource.kind === 'check' ? resource.id : '';
  if (key === 'canary_id') return resource.canaryId ?? '';
  const value = (resource as unknown as Record<string, unknown>)[key] ?? resource.env[key];
  return value === null || value === undefined ? '' : String(value);
}

export function groupHashOf(rule: StoredRule, eventName: string, resource: EventResource): string {
  return `${rule.id}:${eventName}:${rule.groupBy.map((key) => `${key}=${groupValue(key, resource)}`).join('|')}`;
}

/**
 * Configs (by relationships and parents) or components (by the tree) within `depth` steps of a resource:
 * `outgoing` walks toward what leads to it (its parents: a Deployment reaches its Pods), `incoming` toward
 * what it leads to, `all` both ways.
 */
async function relatedResources(db: Queryable, resource: EventResource, direction: 'outgoing' | 'incoming' | 'all', depth: number): Promise<Array<{ id: string; name: string; type: string | null }>> {
  const up = direction !== 'incoming';
  const down = direction !== 'outgoing';
  const seen = new Set<string>([resource.id]);
  let frontier = [resource.id];
  for (let step = 0; step < Math.min(depth, 10) && frontier.length > 0; step += 1) {
    const parts: string[] = [];
    if (resource.kind === 'config') {
      if (up) parts.push('SELECT config_id AS id FROM config_relationships WHERE related_id = ANY($1::uuid[])', 'SELECT parent_id FROM config_items WHERE id = ANY($1::uuid[]) AND parent_id IS NOT NULL');
      if (down) parts.push('SELECT related_id FROM config_relationships WHERE config_id = ANY($1::uuid[])', 'SELECT id FROM config_items WHERE parent_id = ANY($1::uuid[])');
    } else {
      if (up) parts.push('SELECT parent_id AS id FROM components WHERE id = ANY($1::uuid[]) AND parent_id IS NOT NULL');
      if (down) parts.push('SELECT id FROM components WHERE parent_id = ANY($1::uuid[])');
    }
    const { rows } = await db.query<{ id: string }>(parts.join(' UNION '), [frontier]);
    frontier = rows.map((row) => row.id).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
  }
  seen.delete(resource.id);
  if (seen.size === 0) return [];
  const table = resource.kind === 'config' ? 'config_items' : 'components';
  const { rows } = await db.query<{ id: string; name: string; type: string | null }>(`SELECT id, name, type FROM ${table} WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`, [[...seen]]);
  return rows;
}
