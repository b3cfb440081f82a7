import { RELATED_CONFIGS_MAX_DEPTH } from '@common/constants';
import { FilterSelect } from '@web/ui/filter-select';
import { TimeRangePicker, type TimeRangeValue } from '@web/ui/time-range';
import { SEVERITIES } from '../components/badges';
import { TextFilter } from '../components/text-filter';
import { useChangeTypes, useConfigTags, useConfigTypes } from '../queries';
import { RECURSIVE_OPTIONS, withTag, type ChangesFilterPatch, type ChangesFilters } from './filters';
import { TagFilter } from './tag-filter';

const ALL = { value: '', label: 'All' };
const same = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** The chosen value stays selectable even before (or without) the lookup: a shared link names it. */
function withCurrent(options: readonly string[], current: string | undefined): string[] {
  return current && !options.includes(current) ? [...options, current] : [...options];
}

/** Spec §7 recursive, in words. */
const RECURSIVE_LABELS: Readonly<Record<(typeof RECURSIVE_OPTIONS)[number], string>> = {
  none: 'This config only',
  up: 'And its parents (up)',
  down: 'And its children (down)',
  all: 'Up and down',
};

export interface ChangesFilterBarProps {
  filters: ChangesFilters;
  /** One config's feed: its relationship controls instead of the config type. */
  scoped: boolean;
  onFilterChange: (patch: ChangesFilterPatch) => void;
  onTimeRangeChange: (value: TimeRangeValue) => void;
}

/** Change type, severity, source, config type, tags and time range; one config's feed adds recursive and depth. */
export function ChangesFilterBar({ filters, scoped, onFilterChange, onTimeRangeChange }: ChangesFilterBarProps) {
  const changeTypes = useChangeTypes();
  const configTypes = useConfigTypes();
  const tags = useConfigTags();
  return (
    <div role="search" aria-label="Change filters" className="flex flex-wrap items-center gap-3">
      <FilterSelect label="Change type" value={filters.changeType ?? ''} options={[ALL, ...same(withCurrent(changeTypes.data ?? [], filters.changeType))]} onChange={(changeType) => onFilterChange({ changeType })} />
      <FilterSelect label="Severity" value={filters.severity ?? ''} options={[ALL, ...same(SEVERITIES)]} onChange={(severity) => onFilterChange({ severity })} />
      <TextFilter label="Source" value={filters.source ?? ''} placeholder="e.g. kubernetes*" title="The change's source; * matches anything, a leading ! leaves it out" onCommit={(source) => onFilterChange({ source })} />
      {scoped ? (
        <>
          <FilterSelect label="Related" value={filters.recursive} options={RECURSIVE_OPTIONS.map((value) => ({ value, label: RECURSIVE_LABELS[value] }))} onChange={(recursive) => onFilterChange({ recursive })} />
          {filters.recursive === 'none' ? null : (
            <FilterSelect
              label="Depth"
              value={String(filters.depth)}
              options={Array.from({ length: RELATED_CONFIGS_MAX_DEPTH }, (_, index) => ({ value: String(index + 1), label: String(index + 1) }))}
              onChange={(depth) => onFilterChange({ depth })}
            />
          )}
        </>
      ) : (
        <FilterSelect label="Config type" value={filters.configType ?? ''} options={[ALL, ...same(withCurrent(configTypes.data ?? [], filters.configType))]} onChange={(configType) => onFilterChange({ configType })} />
      )}
      <TimeRangePicker value={filters.timeRange} onChange={onTimeRangeChange} />
      <TagFilter
        tags={filters.tags}
        known={tags.data ?? []}
        onAdd={(key, value) => onFilterChange({ tags: withTag(filters.tags, key, value) })}
        onRemove={(key) => onFilterChange({ tags: withTag(filters.tags, key, undefined) })}
      />
    </div>
  );
}
