import { useMemo } from 'react';
import { Page } from '@web/app/layout/page';
import { ConfigLink } from '@web/features/catalog/components';
import { useDisplayPreferences } from '@web/lib/preferences';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, sortingToParams, type ColumnDef, type SortingState } from '@web/ui/data-table';
import { Ago } from '../components/ago';
import { SeverityBadge } from '../components/badges';
import { CatalogSections } from '../components/catalog-sections';
import { InsightDetailsDialog } from './details-dialog';
import { InsightsFilterBar } from './filter-bar';
import { applyInsightsFilter, applyInsightsView, parseInsightsFilters } from './filters';
import { useInsights } from './queries';
import type { InsightRow } from './schema';

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

function columns(): ColumnDef<InsightRow>[] {
  return [
    {
      id: 'analyzer',
      header: 'Insight',
      // The accessors make the columns sortable; the rows are sorted on the server.
      accessorFn: (row) => row.analyzer,
      cell: ({ row }) => (
        <span className="flex min-w-0 flex-col">
          <span className="font-medium text-slate-900">{row.original.analyzer}</span>
          {row.original.summary || row.original.message ? (
            <span className="max-w-xl truncate text-xs text-slate-600" title={row.original.message ?? row.original.summary ?? ''}>
              {row.original.summary ?? row.original.message}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'config_name',
      header: 'Config',
      accessorFn: (row) => row.config_name,
      cell: ({ row }) => (
        <span className="flex min-w-0 flex-col">
          <ConfigLink
            config={{ id: row.original.config_id, name: row.original.config_name, type: row.original.config_type, health: row.original.config_health, deleted_at: row.original.config_deleted_at }}
            showHealth
            onClick={stop}
          />
          <span className="text-xs text-slate-500">{row.original.config_type}</span>
        </span>
      ),
    },
    { id: 'analysis_type', header: 'Type', accessorFn: (row) => row.analysis_type, cell: ({ row }) => row.original.analysis_type },
    { id: 'severity', header: 'Severity', enableSorting: false, cell: ({ row }) => <SeverityBadge severity={row.original.severity} /> },
    { id: 'status', header: 'Status', accessorFn: (row) => row.status, cell: ({ row }) => row.original.status },
    { id: 'first_observed', header: 'First seen', accessorFn: (row) => row.first_observed, cell: ({ row }) => <Ago value={row.original.first_observed} /> },
    { id: 'last_observed', header: 'Last seen', accessorFn: (row) => row.last_observed, cell: ({ row }) => <Ago value={row.original.last_observed} /> },
  ];
}

/**
 * Spec §2 /catalog/insights (§3 Config analysis): what the analyzers found about the catalog's configs,
 * filtered by analyzer, type, severity, status and config type, in server pages; a row opens its details.
 */
export default function InsightsPage() {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseInsightsFilters(params), [params]);
  const { insight, ...queryFilters } = filters;
  const { showDeletedConfigs } = useDisplayPreferences();
  const insights = useInsights(queryFilters, showDeletedConfigs);
  const tableColumns = useMemo(columns, []);
  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const onSortingChange = (next: SortingState) => {
    const removedDefault = next.length === 0 && filters.sortBy === 'last_observed' && filters.sortOrder === 'desc';
    const { sortBy, sortOrder } = removedDefault ? { sortBy: 'last_observed', sortOrder: 'asc' } : sortingToParams(next);
    setParams((current) => applyInsightsView(current, { sortBy, sortOrder, pageIndex: undefined }));
  };
  return (
    <Page title="Insights" extra={<CatalogSections />} onRefresh={() => void insights.refetch()} refreshing={insights.isFetching}>
      <div className="flex flex-col gap-3">
        <InsightsFilterBar filters={filters} onFilterChange={(patch) => setParams((current) => applyInsightsFilter(current, patch))} />
        {insights.error ? (
          <p role="alert" className="text-sm text-red-600">
            {insights.error.message}
          </p>
        ) : null}
        <DataTable
          aria-label="Insights"
          data={insights.data?.rows ?? []}
          columns={tableColumns}
          getRowId={(row) => row.id}
          isLoading={insights.isLoading}
          manualSorting
          sorting={sorting}
          onSortingChange={onSortingChange}
          onRowClick={(row) => setParams((current) => applyInsightsView(current, { insight: row.id }))}
          pagination={{
            pageIndex: filters.pageIndex,
            pageSize: filters.pageSize,
            totalRows: insights.data?.total ?? 0,
            persistKey: false,
            onChange: (next) => setParams((current) => applyInsightsView(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
          }}
        />
        {insight ? <InsightDetailsDialog id={insight} onClose={() => setParams((current) => applyInsightsView(current, { insight: undefined }))} /> : null}
      </div>
    </Page>
  );
}
