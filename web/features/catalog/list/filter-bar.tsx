import { multiSelectSummary, labelState, withLabelState, type LabelFilterEntry } from '@web/features/health/state/labels';
import { Button } from '@web/ui/primitives/button';
import { Select } from '@web/ui/primitives/select';
import { SearchBox } from '@web/ui/search-box';
import type { TriState } from '@web/ui/tri-state-filter';
import { CONFIG_HEALTHS } from '../api/schema';
import { ConfigHealthDot, HEALTH_TEXT } from '../components/config-health';
import { activeFilterCount, valueState, withValueState, type CatalogFilters, type FilterPatch, type ValueFilter } from './filters';
import { FilterPopover } from './filter-popover';

const ALL_TYPES = '__all__';
const ALL_AGENTS = '__all_agents__';

/** The trigger text of a value filter: 'All', the values (excluded ones with −), or counts from 4 on. */
export function valueSummary(filter: ValueFilter): string {
  const entries: LabelFilterEntry[] = [
    ...filter.include.map((value) => ({ key: '', value, state: 1 as const })),
    ...filter.exclude.map((value) => ({ key: '', value, state: -1 as const })),
  ];
  return multiSelectSummary(entries, '');
}

/** The trigger text of a tags or labels filter. */
export function mapSummary(entries: readonly LabelFilterEntry[]): string {
  if (entries.length === 0) return 'All';
  if (entries.length > 2) return `${entries.length} active`;
  return entries.map((entry) => `${entry.state === -1 ? '−' : ''}${entry.key}=${entry.value}`).join(', ');
}

export interface FilterBarProps {
  filters: CatalogFilters;
  types: readonly string[];
  statuses: readonly string[];
  tags: readonly { key: string; values: string[] }[];
  labels: readonly { key: string; values: string[] }[];
  /** Agents to filter by ('local' first); the filter shows once there is an agent besides local. */
  agents?: readonly { id: string; name: string }[];
  onChange: (patch: FilterPatch) => void;
  onClear: () => void;
}

/** Type (items view), health, status, tags and labels (include/exclude) and name search (Show deleted sits with the count, catalog-page.tsx). */
export function FilterBar({ filters, types, statuses, tags, labels, agents = [], onChange, onClear }: FilterBarProps) {
  // A type or status from a shared link stays selectable before (or without) the lookups.
  const typeOptions = filters.type && !types.includes(filters.type) ? [...types, filters.type] : types;
  const statusValues = [...new Set([...statuses, ...filters.status.include, ...filters.status.exclude])];
  const mapChange = (field: 'tags' | 'labels') => (key: string | undefined, value: string, state: TriState) =>
    onChange({ [field]: withLabelState(filters[field], key ?? '', value, state) });
  const active = activeFilterCount(filters);
  const keyGroups = (list: readonly { key: string; values: string[] }[]) => list.map((entry) => ({ key: entry.key, values: entry.values.map((value) => ({ value })) }));
  return (
    <div role="search" aria-label="Catalog filters" className="flex flex-wrap items-center gap-2">
      {filters.view === 'list' ? (
        <Select
          label="Type"
          hideLabel
          className="w-60"
          value={filters.type ?? ALL_TYPES}
          options={[{ value: ALL_TYPES, label: 'All types' }, ...typeOptions.map((type) => ({ value: type, label: type }))]}
          onValueChange={(type) => onChange({ type: type === ALL_TYPES ? null : type })}
        />
      ) : null}
      <SearchBox label="Search configs" placeholder="Search by name" value={filters.search} onCommit={(search) => onChange({ search })} />
      <FilterPopover
        label="Health"
        summary={valueSummary(filters.health)}
        groups={[
          {
            values: CONFIG_HEALTHS.map((health) => ({
              value: health,
              label: (
                <span className="inline-flex items-center gap-1.5">
                  <ConfigHealthDot health={health} />
                  {HEALTH_TEXT[health]}
                </span>
              ),
            })),
          },
        ]}
        stateOf={(_key, value) => valueState(filters.health, value)}
        onChange={(_key, value, state) => onChange({ health: withValueState(filters.health, value, state) })}
      />
      <FilterPopover
        label="Status"
        summary={valueSummary(filters.status)}
        groups={[{ values: statusValues.map((value) => ({ value })) }]}
        stateOf={(_key, value) => valueState(filters.status, value)}
        onChange={(_key, value, state) => onChange({ status: withValueState(filters.status, value, state) })}
        emptyText="The items have no status."
      />
      <FilterPopover
        label="Tags"
        summary={mapSummary(filters.tags)}
        groups={keyGroups(tags)}
        stateOf={(key, value) => labelState(filters.tags, key ?? '', value)}
        onChange={mapChange('tags')}
        emptyText="The items have no tags."
      />
      <FilterPopover
        label="Labels"
        summary={mapSummary(filters.labels)}
        groups={keyGroups(labels)}
        stateOf={(key, value) => labelState(filters.labels, key ?? '', value)}
        onChange={mapChange('labels')}
        emptyText="The items have no labels."
      />
      {agents.length > 1 || filters.agent ? (
        <Select
          label="Agent"
          hideLabel
          className="w-44"
          value={filters.agent ?? ALL_AGENTS}
          options={[
            { value: ALL_AGENTS, label: 'All agents' },
            ...agents.map((agent) => ({ value: agent.id, label: agent.name })),
            ...(filters.agent && !agents.some((agent) => agent.id === filters.agent) ? [{ value: filters.agent, label: filters.agent }] : []),
          ]}
          onValueChange={(agent) => onChange({ agent: agent === ALL_AGENTS ? null : agent })}
        />
      ) : null}
      {active > 0 ? (
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear filters ({active})
        </Button>
      ) : null}
    </div>
  );
}
