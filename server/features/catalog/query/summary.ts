import type pg from 'pg';
import { likePattern } from '../../../platform/search';
import { GROUP_COLUMNS, type GroupColumn, type SummaryBody } from './schema';
import { filterConditions, mapConditions, Params } from './sql';

/**
 * POST /api/catalog/summary: the catalog's items counted per group (by type unless asked otherwise), with
 * their health and statuses, the changes of a period, open insights by type, and first and last dates.
 *
 * Three counts are merged here: the items (per group, health and status), the changes in the period and
 * the open insights. Grouped by type (the catalog's first screen) they are three statements on covering
 * indexes run side by side; any other grouping reads the items once in one statement.
 */

export const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;

/** Fields of a group that a group key of the same name must not overwrite (its value stays in `keys`). */
const RESERVED = new Set(['keys', 'count', 'health', 'status', 'changes', 'analysis', 'insights', 'created_at', 'updated_at']);

export interface SummaryGroup {
  /** The group's key values, by the names given in groupBy (null: items without that value). */
  keys: Record<string, string | null>;
  count: number;
  health: Record<(typeof HEALTHS)[number], number>;
  status: Record<string, number>;
  /** Changes since `changes.since`. */
  changes: number;
  /** Open insights by analysis type. */
  analysis: Record<string, number>;
  /** Open insights. */
  insights: number;
  created_at: Date | null;
  updated_at: Date | null;
  /** Each group key also as a field (`type`, `cluster`, …) unless it names one of the fields above. */
  [key: string]: unknown;
}

export interface SummaryRequest extends SummaryBody {
  changesSince: Date;
  analysisSince: Date | undefined;
}

const isColumn = (key: string): key is GroupColumn => GROUP_COLUMNS.some((column) => column === key);

/** SQL of one group key on config_items `ci`. */
function groupExpr(key: string, params: Params): string {
  if (isColumn(key)) return key === 'agent_id' ? 'ci.agent_id::text' : `ci.${key}`;
  if (key.startsWith('labels.')) return `ci.labels ->> ${params.add(key.slice('labels.'.length))}`;
  return `ci.tags ->> ${params.add(key.startsWith('tags.') ? key.slice('tags.'.length) : key)}`;
}

/** The items a request counts, as conditions on config_items `ci`. */
function itemConditions(request: SummaryRequest, params: Params): string[] {
  const filter = request.filter;
  const conditions = request.deleted ? [] : ['ci.deleted_at IS NULL'];
  for (const column of ['type', 'config_class', 'status', 'health', 'namespace'] as const) {
    const value = filter[column];
    if (value) conditions.push(...filterConditions(`ci.${column}`, value, params));
  }
  if (filter.agent_id) conditions.push(...filterConditions('ci.agent_id::text', filter.agent_id, params));
  for (const word of (filter.search ?? '').split(/\s+/).filter(Boolean)) conditions.push(`ci.name ILIKE ${params.add(`%${likePattern(word)}%`)}`);
  if (filter.labels) conditions.push(...mapConditions('ci.labels', filter.labels, params));
  if (filter.tags) conditions.push(...mapConditions('ci.tags', filter.tags, params));
  return conditions;
}

const where = (conditions: readonly string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '');

/** True when grouped by type only and filtered by type only: the changes are counted without the items. */
function byTypeOnly(request: SummaryRequest): boolean {
  const { type: _type, search, ...others } = request.filter;
  return request.groupBy.length === 1 && request.groupBy[0] === 'type' && !search?.trim() && Object.values(others).every((value) => value === undefined);
}

interface Statement {
  text: string;
  values: unknown[];
}

/** The rows every path answers: per group (g0, g1, …) items by health and status, changes, and open insights by type. */
interface Rows {
  items: Row[];
  changes: Row[];
  analysis: Row[];
}

const groupColumns = (size: number, alias = '') => Array.from({ length: size }, (_, i) => `${alias}g${i}`);

/**
 * Grouped by type: three statements side by side, each on covering indexes (migration 0008). Changes are
 * counted per `config_type` (the type denormalised on every change) without reading the items; deleted
 * items are few, and one hashed anti-join over their index leaves their changes out.
 */
async function byTypeRows(pool: pg.Pool, request: SummaryRequest): Promise<Rows> {
  const items = new Params();
  const itemsWhere = where(itemConditions(request, items));
  const changes = new Params();
  const changeConditions = [`c.created_at >= ${changes.add(request.changesSince, 'timestamptz')}`];
  if (request.filter.type) changeConditions.push(...filterConditions('c.config_type', request.filter.type, changes));
  if (!request.deleted) changeConditions.push('NOT EXISTS (SELECT 1 FROM config_items d WHERE d.id = c.config_id AND d.deleted_at IS NOT NULL)');
  const analysis = new Params();
  const analysisConditions = ["a.status = 'open'", ...itemConditions(request, analysis)];
  if (request.analysisSince) analysisConditions.push(`a.last_observed >= ${analysis.add(request.analysisSince, 'timestamptz')}`);
  const statements: Statement[] = [
    {
      text: `SELECT ci.type AS g0, ci.health, ci.status, count(*)::int AS n, min(ci.created_at) AS created_at, max(ci.updated_at) AS updated_at
             FROM config_items ci ${itemsWhere} GROUP BY ci.type, ci.health, ci.status`,
      values: items.values,
    },
    { text: `SELECT c.config_type AS g0, count(*)::int AS n FROM config_changes c ${where(changeConditions)} GROUP BY c.config_type`, values: changes.values },
    {
      text: `SELECT ci.type AS g0, a.analysis_type, count(*)::int AS n FROM config_analysis a JOIN config_items ci ON ci.id = a.config_id
             ${where(analysisConditions)} GROUP BY ci.type, a.analysis_type`,
      values: analysis.values,
    },
  ];
  const [itemRows, changeRows, analysisRows] = await Promise.all(statements.map((statement) => pool.query<Row>(statement.text, statement.values)));
  return { items: itemRows?.rows ?? [], changes: changeRows?.rows ?? [], analysis: analysisRows?.rows ?? [] };
}

/**
 * Any other grouping: one statement that reads the items once (their group values computed once), then
 * counts items, changes and open insights per group from that set.
 */
async function groupedRows(pool: pg.Pool, request: SummaryRequest): Promise<Rows> {
  const params = new Params();
  const size = request.groupBy.length;
  const exprs = request.groupBy.map((key) => groupExpr(key, params));
  const conditions = itemConditions(request, params);
  const since = params.add(request.changesSince, 'timestamptz');
  const analysisSince = request.analysisSince ? ` AND a.last_observed >= ${params.add(request.analysisSince, 'timestamptz')}` : '';
  const g = groupColumns(size).join(', ');
  const ig = groupColumns(size, 'i.').join(', ');
  const text = `
    WITH items AS MATERIALIZED (
      SELECT ci.id, ${exprs.map((expr, i) => `${expr} AS g${i}`).join(', ')}, ci.health, ci.status, ci.created_at, ci.updated_at
      FROM config_items ci ${where(conditions)}
    )
    SELECT 'items' AS kind, ${g}, health, status, NULL::text AS analysis_type, count(*)::int AS n, min(created_at) AS created_at, max(updated_at) AS updated_at
    FROM items GROUP BY ${g}, health, status
    UNION ALL
    SELECT 'changes', ${ig}, NULL, NULL, NULL, count(*)::int, NULL, NULL
    FROM config_changes c JOIN items i ON i.id = c.config_id WHERE c.created_at >= ${since} GROUP BY ${ig}
    UNION ALL
    SELECT 'analysis', ${ig}, NULL, NULL, a.analysis_type, count(*)::int, NULL, NULL
    FROM config_analysis a JOIN items i ON i.id = a.config_id WHERE a.status = 'open'${analysisSince} GROUP BY ${ig}, a.analysis_type`;
  const { rows } = await pool.query<Row>(text, params.values);
  return { items: rows.filter((row) => row.kind === 'items'), changes: rows.filter((row) => row.kind === 'changes'), analysis: rows.filter((row) => row.kind === 'analysis') };
}

type Row = Record<string, unknown>;

const keyValues = (row: Row, size: number): Array<string | null> =>
  Array.from({ length: size }, (_, i) => {
    const value = row[`g${i}`];
    return value === null || value === undefined ? null : String(value);
  });

function compareKeys(a: ReadonlyArray<string | null>, b: ReadonlyArray<string | null>): number {
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

const isHealth = (value: unknown): value is (typeof HEALTHS)[number] => HEALTHS.some((health) => health === value);

export async function catalogSummary(pool: pg.Pool, request: SummaryRequest): Promise<SummaryGroup[]> {
  const size = request.groupBy.length;
  const { items, changes, analysis } = byTypeOnly(request) ? await byTypeRows(pool, request) : await groupedRows(pool, request);
  const groups = new Map<string, { values: Array<string | null>; group: SummaryGroup }>();
  for (const row of items) {
    const values = keyValues(row, size);
    const id = JSON.stringify(values);
    let entry = groups.get(id);
    if (!entry) {
      const keys: Record<string, string | null> = {};
      request.groupBy.forEach((key, i) => (keys[key] = values[i] ?? null));
      const group: SummaryGroup = { keys, count: 0, health: { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 }, status: {}, changes: 0, analysis: {}, insights: 0, created_at: null, updated_at: null };
      entry = { values, group };
      groups.set(id, entry);
    }
    const group = entry.group;
    const n = Number(row.n);
    group.count += n;
    group.health[isHealth(row.health) ? row.health : 'unknown'] += n;
    if (typeof row.status === 'string') group.status[row.status] = (group.status[row.status] ?? 0) + n;
    const created = row.created_at instanceof Date ? row.created_at : null;
    const updated = row.updated_at instanceof Date ? row.updated_at : null;
    if (created && (!group.created_at || created < group.created_at)) group.created_at = created;
    if (updated && (!group.updated_at || updated > group.updated_at)) group.updated_at = updated;
  }
  for (const row of changes) {
    const group = groups.get(JSON.stringify(keyValues(row, size)))?.group;
    if (group) group.changes += Number(row.n);
  }
  for (const row of analysis) {
    const group = groups.get(JSON.stringify(keyValues(row, size)))?.group;
    if (!group || typeof row.analysis_type !== 'string') continue;
    group.analysis[row.analysis_type] = (group.analysis[row.analysis_type] ?? 0) + Number(row.n);
    group.insights += Number(row.n);
  }
  return [...groups.values()]
    .sort((a, b) => compareKeys(a.values, b.values))
    .map(({ group }) => {
      const named: Record<string, string | null> = {};
      for (const [key, value] of Object.entries(group.keys)) if (!RESERVED.has(key)) named[key] = value;
      return { ...named, ...group };
    });
}
