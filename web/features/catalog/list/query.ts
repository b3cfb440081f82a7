import type { PostgrestClient } from '@supabase/postgrest-js';
import type { LabelFilterEntry } from '@web/features/health/state/labels';
import { ANY_DELETED } from '../api/db-error';
import { CONFIG_LIST_COLUMNS } from '../api/schema';
import { GROUP_BY_TYPE, type CatalogFilters, type ValueFilter } from './filters';

/** The filters that decide which items a page shows, with the deleted choice resolved. */
export type ListQuery = Omit<CatalogFilters, 'view' | 'groupBy' | 'showDeleted'> & { showDeleted: boolean };

/** A value inside a PostgREST list or logic tree, quoted so commas, dots and parentheses stay in it. */
export const quoted = (value: string) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;
const list = (values: readonly string[]) => `(${values.map(quoted).join(',')})`;

type Builder = ReturnType<ReturnType<PostgrestClient['from']>['select']>;

/**
 * Included values match any of them; excluded ones match none and keep the items without a value. For
 * health, 'unknown' also means no health at all (a scraper that did not say).
 */
function applyValueFilter(query: Builder, column: string, filter: ValueFilter, nullAs?: string): Builder {
  let next = query;
  if (filter.include.length > 0) {
    const orNull = nullAs !== undefined && filter.include.includes(nullAs);
    next = orNull ? next.or(`${column}.in.${list(filter.include)},${column}.is.null`) : next.in(column, filter.include);
  }
  if (filter.exclude.length > 0) {
    const dropsNull = nullAs !== undefined && filter.exclude.includes(nullAs);
    next = dropsNull ? next.not(column, 'in', list(filter.exclude)) : next.or(`${column}.is.null,${column}.not.in.${list(filter.exclude)}`);
  }
  return next;
}

/** Tags or labels: for each key the included values are alternatives; an excluded value must not be there. */
function applyMapFilter(query: Builder, column: 'tags' | 'labels', entries: readonly LabelFilterEntry[]): Builder {
  let next = query;
  const included = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.state === 1) included.set(entry.key, [...(included.get(entry.key) ?? []), entry.value]);
    else next = next.not(column, 'cs', JSON.stringify({ [entry.key]: entry.value }));
  }
  for (const [key, values] of included) next = next.in(`${column}->>${key}`, values);
  return next;
}

/** Words of the search, each of which the name must contain (as the summary API reads `search`). */
export function searchWords(search: string): string[] {
  return search.split(/\s+/).filter(Boolean);
}

/**
 * One page of items as a PostgREST request on `configs`: every filter a bound parameter, the total from
 * `count: 'exact'` (spec §7), sorted with empty values last and by id to keep pages stable.
 */
export function buildConfigsQuery(client: PostgrestClient, filters: ListQuery) {
  let query: Builder = client.from('configs').select(CONFIG_LIST_COLUMNS, { count: 'exact' });
  if (filters.type) query = query.eq('type', filters.type);
  if (filters.agent) query = query.eq('agent_id', filters.agent);
  query = applyValueFilter(query, 'health', filters.health, 'unknown');
  query = applyValueFilter(query, 'status', filters.status);
  query = applyMapFilter(query, 'tags', filters.tags);
  query = applyMapFilter(query, 'labels', filters.labels);
  // `*` is PostgREST's wildcard (a person may type one too); `%` and `_` are taken literally.
  for (const word of searchWords(filters.search)) query = query.ilike('name', `*${word.replace(/[\\%_]/g, (char) => `\\${char}`)}*`);
  if (filters.showDeleted) query = query.or(ANY_DELETED);
  const first = filters.pageIndex * filters.pageSize;
  return query
    .order(filters.sortBy, { ascending: filters.sortOrder === 'asc', nullsFirst: false })
    .order('id')
    .range(first, first + filters.pageSize - 1);
}

/** The body of POST /api/catalog/summary for these filters (its own format: docs of the endpoint). */
export function summaryBody(filters: Pick<CatalogFilters, 'groupBy' | 'health' | 'status' | 'tags' | 'labels' | 'search' | 'type' | 'agent'>, showDeleted: boolean) {
  const text = (filter: ValueFilter) => {
    const value = [...filter.include, ...filter.exclude.map((v) => `!${v}`)];
    return value.length > 0 ? value : undefined;
  };
  const map = (entries: readonly LabelFilterEntry[]) => {
    if (entries.length === 0) return undefined;
    const out: Record<string, string[]> = {};
    for (const entry of entries) out[entry.key] = [...(out[entry.key] ?? []), entry.state === 1 ? entry.value : `!${entry.value}`];
    return out;
  };
  const filter = {
    type: filters.type ? [filters.type] : undefined,
    health: text(filters.health),
    status: text(filters.status),
    tags: map(filters.tags),
    labels: map(filters.labels),
    search: filters.search || undefined,
    agent_id: filters.agent ? [filters.agent] : undefined,
  };
  const defined = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
  return { groupBy: [filters.groupBy || GROUP_BY_TYPE], filter: defined, deleted: showDeleted };
}
