import type { TopologyComponent } from '@common/topology';
import { formatLabelFilter, labelFilterPredicate, parseLabelFilter, type LabelFilterEntry } from '@web/features/health/state/labels';
import type { TriState } from '@web/ui/tri-state-filter';

/** A list filter in the URL: `unhealthy,warning` includes, `!healthy` excludes (spec §4 tri-state). */
export type ValueFilter = ReadonlyMap<string, 1 | -1>;

export function parseValueFilter(text: string | null): ValueFilter {
  const out = new Map<string, 1 | -1>();
  for (const part of (text ?? '').split(',')) {
    const value = part.trim();
    if (!value || value === '!') continue;
    if (value.startsWith('!')) out.set(value.slice(1), -1);
    else out.set(value, 1);
  }
  return out;
}

export function formatValueFilter(filter: ValueFilter): string | undefined {
  const text = [...filter].map(([value, state]) => (state === -1 ? `!${value}` : value)).join(',');
  return text || undefined;
}

export function withValueState(filter: ValueFilter, value: string, state: TriState): ValueFilter {
  const next = new Map(filter);
  if (state === 0) next.delete(value);
  else next.set(value, state);
  return next;
}

function passes(filter: ValueFilter, value: string | null): boolean {
  if (filter.size === 0) return true;
  const included = [...filter].filter(([, state]) => state === 1).map(([item]) => item);
  if (value !== null && filter.get(value) === -1) return false;
  return included.length === 0 || (value !== null && included.includes(value));
}

export interface TopologyFilters {
  health: ValueFilter;
  type: ValueFilter;
  team: ValueFilter;
  labels: LabelFilterEntry[];
  /** Spec: unhealthy first (the default), or by name. */
  sortBy: 'health' | 'name';
}

export const FILTER_PARAMS = ['health', 'type', 'team', 'labels', 'sortBy'] as const;

export function readFilters(params: URLSearchParams): TopologyFilters {
  return {
    health: parseValueFilter(params.get('health')),
    type: parseValueFilter(params.get('type')),
    team: parseValueFilter(params.get('team')),
    labels: parseLabelFilter(params.get('labels') ?? undefined),
    sortBy: params.get('sortBy') === 'name' ? 'name' : 'health',
  };
}

/** Writes one filter into the URL (an empty one is removed, so the URL stays short). */
export function writeFilter(params: URLSearchParams, key: (typeof FILTER_PARAMS)[number], value: ValueFilter | LabelFilterEntry[] | string | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  const text = value === undefined || typeof value === 'string' ? value : Array.isArray(value) ? formatLabelFilter(value) : formatValueFilter(value as ValueFilter);
  if (text) next.set(key, text);
  else next.delete(key);
  return next;
}

export function activeFilterCount(filters: TopologyFilters): number {
  return filters.health.size + filters.type.size + filters.team.size + filters.labels.length;
}

const HEALTH_ORDER = { unhealthy: 0, warning: 1, unknown: 2, healthy: 3 } as const;

/** The components that pass every filter, in the chosen order. */
export function applyFilters(components: readonly TopologyComponent[], filters: TopologyFilters): TopologyComponent[] {
  const labelsPass = labelFilterPredicate(filters.labels);
  const byName = (a: TopologyComponent, b: TopologyComponent) => (a.text || a.name).localeCompare(b.text || b.name, undefined, { numeric: true });
  return components
    .filter((item) => passes(filters.health, item.health) && passes(filters.type, item.type) && passes(filters.team, item.owner) && labelsPass(item.labels))
    .sort(filters.sortBy === 'name' ? byName : (a, b) => HEALTH_ORDER[a.health] - HEALTH_ORDER[b.health] || byName(a, b));
}
