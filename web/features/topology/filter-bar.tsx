import { COMPONENT_HEALTHS, type TopologyResponse } from '@common/topology';
import { labelState, withLabelState } from '@web/features/health/state/labels';
import { FilterPopover } from '@web/features/catalog/list/filter-popover';
import { HEALTH_TEXT } from '@web/features/catalog/components';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { activeFilterCount, FILTER_PARAMS, readFilters, withValueState, writeFilter, type ValueFilter } from './filters';

function summaryOf(filter: ValueFilter, label: (value: string) => string = (value) => value): string {
  if (filter.size === 0) return 'All';
  if (filter.size > 2) return `${filter.size} selected`;
  return [...filter].map(([value, state]) => `${state === -1 ? 'not ' : ''}${label(value)}`).join(', ');
}

/** Health, type, team and label filters and the sort, all in the URL (spec §7: the URL is the state). */
export function TopologyFilterBar({ facets }: { facets: Pick<TopologyResponse, 'types' | 'teams' | 'tags'> | undefined }) {
  const [params, setParams] = useUrlParams();
  const filters = readFilters(params);
  const list = (key: 'health' | 'type' | 'team', label: string, values: readonly string[], text?: (value: string) => string) => (
    <FilterPopover
      label={label}
      summary={summaryOf(filters[key], text)}
      groups={[{ values: values.map((value) => ({ value, label: text ? text(value) : value })) }]}
      stateOf={(_key, value) => filters[key].get(value) ?? 0}
      onChange={(_key, value, state) => setParams((current) => writeFilter(current, key, withValueState(readFilters(current)[key], value, state)))}
      emptyText={`No ${label.toLowerCase()} to filter by`}
    />
  );
  const tags = facets?.tags ?? {};
  const active = activeFilterCount(filters);
  return (
    <div role="toolbar" aria-label="Topology filters" className="flex flex-wrap items-center gap-2">
      {list('health', 'Health', COMPONENT_HEALTHS, (value) => HEALTH_TEXT[value as keyof typeof HEALTH_TEXT] ?? value)}
      {list('type', 'Type', facets?.types ?? [])}
      {list('team', 'Team', facets?.teams ?? [])}
      <FilterPopover
        label="Labels"
        summary={filters.labels.length === 0 ? 'All' : `${filters.labels.length} selected`}
        groups={Object.entries(tags).map(([key, values]) => ({ key, values: values.map((value) => ({ value })) }))}
        stateOf={(key, value) => labelState(filters.labels, key ?? '', value)}
        onChange={(key, value, state) => setParams((current) => writeFilter(current, 'labels', withLabelState(readFilters(current).labels, key ?? '', value, state)))}
        emptyText="No labels to filter by"
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        Sort by
        <select
          value={filters.sortBy}
          onChange={(event) => setParams((current) => writeFilter(current, 'sortBy', event.target.value === 'name' ? 'name' : undefined))}
          className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
        >
          <option value="health">Health</option>
          <option value="name">Name</option>
        </select>
      </label>
      {active > 0 ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={() =>
            setParams((current) => {
              const next = new URLSearchParams(current);
              for (const key of FILTER_PARAMS) if (key !== 'sortBy') next.delete(key);
              return next;
            })
          }
        >
          Clear filters ({active})
        </Button>
      ) : null}
    </div>
  );
}
