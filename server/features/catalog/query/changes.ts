import type pg from 'pg';
import type { ChangeSortKey, ChangesBody } from './schema';
import { filterConditions, mapConditions, Params } from './sql';

/**
 * POST /api/catalog/changes (spec §7 Catalog): a page of changes with the total and a count per change
 * type, filtered by item, type, change type, severity, source, time and the item's tags. With `id` and
 * `recursive`, the changes of related items too (related_configs_recursive: up = incoming, the parents and
 * what relates to the item; down = outgoing, its children and what it relates to).
 *
 * The page leaves out diff and patches (large); a client reads them per change from
 * /api/db/config_changes?id=eq.<id>. The summary and the page are two statements run side by side: the
 * summary counts through config_changes_feed_idx (migration 0008) without reading a row.
 */

export interface ChangesRequest extends Omit<ChangesBody, 'from' | 'to'> {
  from: Date | undefined;
  to: Date | undefined;
}

export interface ChangeRow {
  id: string;
  config_id: string;
  config_type: string;
  change_type: string;
  severity: string;
  source: string | null;
  summary: string | null;
  count: number;
  first_observed: Date;
  created_at: Date;
  created_by: string | null;
  external_created_by: string | null;
  details: unknown;
  config: { id: string; name: string | null; type: string; config_class: string | null; health: string | null; status: string | null; tags: Record<string, string>; deleted_at: Date | null } | null;
}

export interface ChangesAnswer {
  summary: Record<string, number>;
  total: number;
  page: number;
  page_size: number;
  changes: ChangeRow[];
}

/** Severities from the least to the most severe: a severity sort follows this order, not the alphabet. */
const SEVERITY_ORDER = ['info', 'low', 'medium', 'high', 'critical'];

function sortExpr(key: ChangeSortKey, params: Params): string {
  switch (key) {
    case 'severity':
      return `array_position(${params.add(SEVERITY_ORDER, 'text[]')}, c.severity)`;
    case 'name':
      return '(SELECT ci.name FROM config_items ci WHERE ci.id = c.config_id)';
    default:
      return `c.${key}`;
  }
}

/** The changes a request matches, as conditions on config_changes `c`. */
function conditions(request: ChangesRequest, params: Params): string[] {
  const out: string[] = [];
  if (request.from) out.push(`c.created_at >= ${params.add(request.from, 'timestamptz')}`);
  if (request.to) out.push(`c.created_at <= ${params.add(request.to, 'timestamptz')}`);
  if (request.config_type) out.push(...filterConditions('c.config_type', request.config_type, params));
  if (request.type) out.push(...filterConditions('c.change_type', request.type, params));
  if (request.severity) out.push(...filterConditions('c.severity', request.severity, params));
  if (request.source) out.push(...filterConditions('c.source', request.source, params));
  if (request.id) {
    const id = params.add(request.id, 'uuid');
    if (request.recursive === 'none') out.push(`c.config_id = ${id}`);
    else {
      // The item asked about is always included, deleted or not; related items as include_deleted_configs says.
      out.push(
        `c.config_id IN (SELECT ${id} UNION SELECT r.id FROM related_configs_recursive(${id}, ${params.add(request.recursive)}, ${params.add(request.include_deleted_configs, 'boolean')}, ${params.add(request.depth, 'integer')}) r)`,
      );
    }
  } else if (!request.include_deleted_configs) {
    out.push('NOT EXISTS (SELECT 1 FROM config_items d WHERE d.id = c.config_id AND d.deleted_at IS NOT NULL)');
  }
  if (request.tags && Object.keys(request.tags).length > 0) {
    const onTags = mapConditions('t.tags', request.tags, params);
    out.push(`c.config_id IN (SELECT t.id FROM config_items t WHERE ${onTags.join(' AND ')})`);
  }
  return out;
}

const whereOf = (list: readonly string[]) => (list.length > 0 ? `WHERE ${list.join(' AND ')}` : '');

function summaryStatement(request: ChangesRequest): { text: string; values: unknown[] } {
  const params = new Params();
  return { text: `SELECT c.change_type, count(*)::int AS n FROM config_changes c ${whereOf(conditions(request, params))} GROUP BY c.change_type`, values: params.values };
}

const PAGE_COLUMNS = ['id', 'config_id', 'config_type', 'change_type', 'severity', 'source', 'summary', 'count', 'first_observed', 'created_at', 'created_by', 'external_created_by', 'details'];

function pageStatement(request: ChangesRequest): { text: string; values: unknown[] } {
  const params = new Params();
  const where = whereOf(conditions(request, params));
  const { key, descending } = request.sort_by;
  const direction = descending ? 'DESC' : 'ASC';
  const sort = sortExpr(key, params);
  // Ties end on created_at and id, so pages never overlap or skip a row. The page is chosen first (through
  // the indexes), then joined to its items, then put back in order.
  const order = (alias: string, first: string) => [`${first} ${direction}`, ...(key === 'created_at' ? [] : [`${alias}.created_at DESC`]), `${alias}.id ${direction}`].join(', ');
  const limit = params.add(request.page_size, 'integer');
  const offset = params.add((request.page - 1) * request.page_size, 'integer');
  return {
    text: `SELECT ${PAGE_COLUMNS.map((column) => `p.${column}`).join(', ')},
             json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class, 'health', ci.health,
                               'status', ci.status, 'tags', ci.tags, 'deleted_at', ci.deleted_at) AS config
           FROM (
             SELECT ${PAGE_COLUMNS.map((column) => `c.${column}`).join(', ')}, ${sort} AS sort_key
             FROM config_changes c ${where}
             ORDER BY ${order('c', sort)} LIMIT ${limit} OFFSET ${offset}
           ) p
           JOIN config_items ci ON ci.id = p.config_id
           ORDER BY ${order('p', 'p.sort_key')}`,
    values: params.values,
  };
}

export async function catalogChanges(pool: pg.Pool, request: ChangesRequest): Promise<ChangesAnswer> {
  const counts = summaryStatement(request);
  const page = request.summary_only ? undefined : pageStatement(request);
  const [summaryRows, pageRows] = await Promise.all([
    pool.query<{ change_type: string; n: number }>(counts.text, counts.values),
    page ? pool.query<ChangeRow>(page.text, page.values) : undefined,
  ]);
  const summary: Record<string, number> = {};
  let total = 0;
  for (const row of summaryRows.rows.sort((a, b) => b.n - a.n || (a.change_type < b.change_type ? -1 : 1))) {
    summary[row.change_type] = row.n;
    total += row.n;
  }
  return { summary, total, page: request.page, page_size: request.page_size, changes: pageRows?.rows ?? [] };
}
