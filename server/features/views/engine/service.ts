import type pg from 'pg';
import { isRecord } from '../../../platform/errors';
import type { Row } from './queries';
import { cacheRules, columnsOf, hasTable, loadView, refresh, refreshRow, type ViewRow } from './refresh';
import { quoteIdent, storedColumns, viewTableName } from './table';
import { fingerprintOf, resolveVariables, selections, type ResolvedVariable, type VariableSpec } from './variables';

/** POST /api/view/:id: the view's rows (first page), panels and variables, from the cache or a refresh. */

export const FIRST_PAGE = 50;

export interface ViewAnswer {
  id: string;
  namespace: string;
  name: string;
  title: string;
  icon: string | null;
  table: string | null;
  requestFingerprint: string;
  columns: Array<Record<string, unknown>>;
  rows: Row[];
  totalRows: number;
  /** The order of `rows`: display.table.sort, else null (primary key order). */
  sort: { column: string; desc: boolean } | null;
  panels: Array<Record<string, unknown>>;
  variables: ResolvedVariable[];
  sections: Array<{ title: string; icon?: string; id: string | null; namespace: string; name: string }>;
  refreshedAt: string | null;
  ageSeconds: number | null;
  refreshing: boolean;
  stale: boolean;
  error?: string;
}

export function variableSpecs(spec: Record<string, unknown>): VariableSpec[] {
  return (Array.isArray(spec.templating) ? spec.templating : []).filter((item): item is VariableSpec => isRecord(item) && typeof item.key === 'string');
}

/** display.table.sort (`-name` descending) when it names a stored column: the table's default order. */
export function tableSort(spec: Record<string, unknown>): { column: string; desc: boolean } | null {
  const sort = isRecord(spec.display) && isRecord(spec.display.table) && typeof spec.display.table.sort === 'string' ? spec.display.table.sort : undefined;
  if (!sort) return null;
  const column = sort.replace(/^[+-]/, '');
  return storedColumns(columnsOf(spec)).some((item) => item.name === column) ? { column, desc: sort.startsWith('-') } : null;
}

/** ORDER BY of a view's table: the table's default sort (display.table.sort), then the primary key. */
function orderOf(spec: Record<string, unknown>): string {
  const parts: string[] = [];
  const sort = tableSort(spec);
  if (sort) parts.push(`${quoteIdent(sort.column)}${sort.desc ? ' DESC NULLS LAST' : ''}`);
  for (const column of storedColumns(columnsOf(spec))) if (column.primaryKey && column.name !== sort?.column) parts.push(quoteIdent(column.name));
  return parts.join(', ') || 'request_fingerprint';
}

/**
 * `limit` rows from `offset` of a view's table for one choice of variables (its request fingerprint), in the
 * view's order: the first page of POST /api/view/:id, and the pages of the MCP tools (query_view, view_<name>).
 */
export async function tableRows(pool: pg.Pool, table: string, fingerprint: string, spec: Record<string, unknown>, limit: number, offset = 0): Promise<Row[]> {
  const result = await pool.query<{ row: Row }>(
    `SELECT to_jsonb(t) - 'request_fingerprint' - 'agent_id' - 'organization_id' AS row FROM ${quoteIdent(table)} t WHERE request_fingerprint = $1 ORDER BY ${orderOf(spec)} LIMIT $2 OFFSET $3`,
    [fingerprint, limit, offset],
  );
  return result.rows.map((item) => item.row);
}

async function sectionsOf(pool: pg.Pool, view: ViewRow): Promise<ViewAnswer['sections']> {
  const sections = Array.isArray(view.spec.sections) ? view.spec.sections.filter(isRecord) : [];
  const out: ViewAnswer['sections'] = [];
  for (const section of sections) {
    const ref = isRecord(section.viewRef) ? section.viewRef : {};
    const namespace = typeof ref.namespace === 'string' && ref.namespace ? ref.namespace : view.namespace;
    const name = String(ref.name ?? '');
    const { rows } = await pool.query<{ id: string; title: string | null }>('SELECT id, title FROM views WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL', [namespace, name]);
    out.push({ title: String(section.title ?? rows[0]?.title ?? name), ...(typeof section.icon === 'string' ? { icon: section.icon } : {}), id: rows[0]?.id ?? null, namespace, name });
  }
  return out;
}

export async function answerView(pool: pg.Pool, view: ViewRow, requested: Record<string, string>, force: boolean): Promise<ViewAnswer> {
  const spec = view.spec;
  const rules = cacheRules(spec);
  const variables = await resolveVariables(pool, variableSpecs(spec), requested);
  const fingerprint = fingerprintOf(selections(variables));
  let row = await refreshRow(pool, view.id, fingerprint);
  const ageOf = (at: Date | null | undefined) => (at ? Date.now() - at.getTime() : undefined);
  const age = ageOf(row?.refreshed_at);
  const lastTry = ageOf(row?.attempted_at);
  const stale = age === undefined || age > rules.maxAgeMs;
  // A forced refresh waits for minAge; a failed one is not retried more often than minAge either.
  const wanted = (force && (age === undefined || age >= rules.minAgeMs)) || (stale && (lastTry === undefined || lastTry >= rules.minAgeMs || row?.error === null));
  let refreshing = false;
  if (wanted) {
    const work = refresh(pool, view, variables, fingerprint);
    const done = await Promise.race([work.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), rules.refreshTimeoutMs))]);
    refreshing = !done;
    row = await refreshRow(pool, view.id, fingerprint);
  }
  const withTable = hasTable(spec);
  const table = withTable ? viewTableName(view.namespace, view.name) : null;
  let rows: Row[] = [];
  if (table && row?.refreshed_at) {
    try {
      rows = await tableRows(pool, table, fingerprint, spec, FIRST_PAGE);
    } catch (error) {
      // The table is being re-created (the view's columns changed): no rows yet.
      if (!(isRecord(error) && error.code === '42P01')) throw error;
    }
  }
  const panelResults = row?.panels ?? [];
  const panels = (Array.isArray(spec.panels) ? spec.panels.filter(isRecord) : []).map((panel, i) => {
    const { query: _query, ...options } = panel;
    const result = panelResults[i];
    return { ...options, name: String(panel.name ?? `panel ${i + 1}`), rows: result?.rows ?? [], ...(result?.error ? { error: result.error } : {}) };
  });
  const finalAge = ageOf(row?.refreshed_at);
  const display = isRecord(spec.display) ? spec.display : {};
  return {
    id: view.id,
    namespace: view.namespace,
    name: view.name,
    title: typeof display.title === 'string' && display.title ? display.title : view.name,
    icon: typeof display.icon === 'string' ? display.icon : null,
    table,
    requestFingerprint: fingerprint,
    columns: columnsOf(spec),
    rows,
    totalRows: row?.row_count ?? 0,
    sort: tableSort(spec),
    panels,
    variables,
    sections: await sectionsOf(pool, view),
    refreshedAt: row?.refreshed_at ? row.refreshed_at.toISOString() : null,
    ageSeconds: finalAge === undefined ? null : Math.max(0, Math.round(finalAge / 1000)),
    refreshing,
    stale: finalAge === undefined || finalAge > rules.maxAgeMs,
    ...(row?.error ? { error: row.error } : {}),
  };
}

export { loadView };
