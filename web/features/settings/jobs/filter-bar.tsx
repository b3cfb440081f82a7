import { FilterSelect } from '@web/ui/filter-select';
import { TimeRangePicker, type TimeRangeValue } from '@web/ui/time-range';
import { DURATION_OPTIONS, REFRESH_RATES, RESOURCE_TYPES, STATUS_ALL, STATUS_OPTIONS, type FilterPatch, type JobsFilters } from './filters';

const same = (values: readonly string[]) => values.map((value) => ({ value, label: value }));
const ALL = { value: '', label: 'All' };

export interface JobsFilterBarProps {
  filters: JobsFilters;
  names: readonly string[];
  onFilterChange: (patch: FilterPatch) => void;
  onTimeRangeChange: (value: TimeRangeValue) => void;
}

/** Spec §2: job name, resource type, status, duration and time range (plus the refresh rate). */
export function JobsFilterBar({ filters, names, onFilterChange, onTimeRangeChange }: JobsFilterBarProps) {
  // A name from a shared link stays selectable even before (or without) the names lookup.
  const nameOptions = filters.name && !names.includes(filters.name) ? [...names, filters.name] : names;
  return (
    <div role="search" aria-label="Job filters" className="flex flex-wrap items-center gap-3">
      <FilterSelect label="Job" value={filters.name ?? ''} options={[ALL, ...same(nameOptions)]} onChange={(name) => onFilterChange({ name })} />
      <FilterSelect label="Resource type" value={filters.resourceType ?? ''} options={[ALL, ...same(RESOURCE_TYPES)]} onChange={(resourceType) => onFilterChange({ resourceType })} />
      <FilterSelect
        label="Status"
        value={filters.status}
        options={STATUS_OPTIONS.map((status) => ({ value: status, label: status === STATUS_ALL ? 'All' : status }))}
        onChange={(status) => onFilterChange({ status })}
      />
      <FilterSelect
        label="Duration"
        value={filters.duration}
        options={DURATION_OPTIONS.map((duration) => ({ value: duration, label: duration === 'none' ? 'None' : `≥ ${duration}` }))}
        onChange={(duration) => onFilterChange({ duration })}
      />
      <FilterSelect label="Refresh" value={filters.refresh} options={same(Object.keys(REFRESH_RATES))} onChange={(refresh) => onFilterChange({ refresh })} />
      <TimeRangePicker value={filters.timeRange} onChange={onTimeRangeChange} />
    </div>
  );
}
