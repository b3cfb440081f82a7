import { FilterSelect } from '@web/ui/filter-select';
import { SEVERITIES } from '../components/badges';
import { useAnalyzers, useConfigTypes } from '../queries';
import { INSIGHT_STATUSES, STATUS_ALL, type InsightsFilterPatch, type InsightsFilters } from './filters';

const ALL = { value: '', label: 'All' };
const same = (values: readonly string[]) => values.map((value) => ({ value, label: value }));
const withCurrent = (options: readonly string[], current: string | undefined) => (current && !options.includes(current) ? [...options, current] : [...options]);
const distinct = (values: readonly string[]) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/** Analyzer, analysis type, severity, status and config type. */
export function InsightsFilterBar({ filters, onFilterChange }: { filters: InsightsFilters; onFilterChange: (patch: InsightsFilterPatch) => void }) {
  const analyzers = useAnalyzers();
  const configTypes = useConfigTypes();
  const rows = analyzers.data ?? [];
  return (
    <div role="search" aria-label="Insight filters" className="flex flex-wrap items-center gap-3">
      <FilterSelect label="Analyzer" value={filters.analyzer ?? ''} options={[ALL, ...same(withCurrent(distinct(rows.map((row) => row.analyzer)), filters.analyzer))]} onChange={(analyzer) => onFilterChange({ analyzer })} />
      <FilterSelect
        label="Type"
        value={filters.analysisType ?? ''}
        options={[ALL, ...same(withCurrent(distinct(rows.map((row) => row.analysis_type)), filters.analysisType))]}
        onChange={(analysisType) => onFilterChange({ analysisType })}
      />
      <FilterSelect label="Severity" value={filters.severity ?? ''} options={[ALL, ...same(SEVERITIES)]} onChange={(severity) => onFilterChange({ severity })} />
      <FilterSelect
        label="Status"
        value={filters.status}
        options={[...INSIGHT_STATUSES.map((status) => ({ value: status, label: status })), { value: STATUS_ALL, label: 'All' }]}
        onChange={(status) => onFilterChange({ status })}
      />
      <FilterSelect label="Config type" value={filters.configType ?? ''} options={[ALL, ...same(withCurrent(configTypes.data ?? [], filters.configType))]} onChange={(configType) => onFilterChange({ configType })} />
    </div>
  );
}
