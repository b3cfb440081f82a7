import type pg from 'pg';

/**
 * Factories for the catalog query tests: rows as a scraper leaves them (store.ts), written with SQL so a
 * test can place changes in time, delete items and open or resolve insights exactly where it needs them.
 */

export interface ItemInput {
  type: string;
  name: string;
  parent?: string;
  health?: string | null;
  status?: string | null;
  config_class?: string;
  namespace?: string;
  tags?: Record<string, string>;
  labels?: Record<string, string>;
  deleted?: boolean;
  agent_id?: string;
  created_at?: Date;
  updated_at?: Date;
}

export async function insertItem(pool: pg.Pool, item: ItemInput): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO config_items (type, name, config_class, namespace, health, status, tags, labels, parent_id, path, agent_id, external_id,
                               created_at, updated_at, deleted_at, delete_reason)
     SELECT $1::text, $2::text, $3, $4, $5, $6, $7::jsonb, $8::jsonb, p.id,
            CASE WHEN p.id IS NULL THEN '' WHEN p.path = '' THEN p.id::text ELSE p.path || '.' || p.id END,
            coalesce($10::uuid, '00000000-0000-0000-0000-000000000000'), ARRAY[$1::text || '/' || $2::text], coalesce($11::timestamptz, now()),
            coalesce($12::timestamptz, now()), CASE WHEN $13::boolean THEN now() END, CASE WHEN $13::boolean THEN 'STALE' END
     FROM (SELECT NULL::int AS one) x LEFT JOIN config_items p ON p.id = $9::uuid
     RETURNING id`,
    [
      item.type, item.name, item.config_class ?? item.type.split('::').pop() ?? null, item.namespace ?? null, item.health === undefined ? 'healthy' : item.health,
      item.status ?? null, JSON.stringify(item.tags ?? {}), JSON.stringify(item.labels ?? {}), item.parent ?? null, item.agent_id ?? null,
      item.created_at ?? null, item.updated_at ?? null, item.deleted ?? false,
    ],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error(`could not insert ${item.type} ${item.name}`);
  return id;
}

export interface ChangeInput {
  change_type?: string;
  severity?: string;
  source?: string;
  summary?: string;
  /** How long ago, in milliseconds (default: just now). */
  ago?: number;
  count?: number;
  details?: unknown;
  external_created_by?: string;
}

/** One change of an item (its type copied as the scraper does), with a diff and a patch. */
export async function insertChange(pool: pg.Pool, configId: string, change: ChangeInput = {}): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO config_changes (config_id, config_type, change_type, severity, source, summary, details, patches, diff, count, first_observed, created_at, external_created_by)
     SELECT ci.id, ci.type, $2, $3, $4, $5, $6, '{"spec":{"replicas":2}}', E'-replicas: 1\\n+replicas: 2', $7, t, t, $9
     FROM config_items ci, (SELECT now() - make_interval(secs => $8::float8 / 1000) AS t) x WHERE ci.id = $1
     RETURNING id`,
    [configId, change.change_type ?? 'diff', change.severity ?? 'info', change.source ?? 'test', change.summary ?? 'replicas changed',
      change.details === undefined ? null : JSON.stringify(change.details), change.count ?? 1, change.ago ?? 0, change.external_created_by ?? null],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error(`no item ${configId}`);
  return id;
}

export async function insertInsight(pool: pg.Pool, configId: string, analyzer: string, analysisType: string, status = 'open', lastObservedAgo = 0): Promise<void> {
  await pool.query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, status, message, last_observed) VALUES ($1, $2, $3, $4, $2, now() - make_interval(secs => $5::float8 / 1000))`,
    [configId, analyzer, analysisType, status, lastObservedAgo],
  );
}

export async function relate(pool: pg.Pool, from: string, to: string, relation = 'routes to'): Promise<void> {
  await pool.query("INSERT INTO config_relationships (config_id, related_id, relation, selector_id) VALUES ($1, $2, $3, 'manual')", [from, to, relation]);
}

export const DAY = 86_400_000;
