import { useMemo } from 'react';
import { useDisplayPreferences } from '@web/lib/preferences';
import { useUrlParams } from '@web/lib/use-url-params';
import { Pagination } from '@web/ui/data-table/pagination';
import { sortingToParams, type SortingState } from '@web/ui/data-table';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { ChangesTable } from './changes-table';
import { ChangesFilterBar } from './filter-bar';
import { applyChangesFilter, applyChangesTimeRange, applyChangesView, CHANGE_PAGE_SIZES, parseChangesFilters } from './filters';
import { useCatalogChanges } from './queries';
import { SummaryChips } from './summary-chips';

/**
 * The feed's state and page: filters from the URL, one config's feed when `configId` is given, and the
 * configs the person shows deleted (spec §2 preferences) included.
 */
export function useChangeFeed(configId: string | undefined) {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseChangesFilters(params), [params]);
  const { showDeletedConfigs } = useDisplayPreferences();
  // Which row is open does not change the page.
  const { change: _open, ...queryFilters } = filters;
  const scope = useMemo(() => ({ ...(configId ? { configId } : {}), includeDeleted: showDeletedConfigs }), [configId, showDeletedConfigs]);
  const query = useCatalogChanges(queryFilters, scope);
  return { filters, setParams, query };
}

/**
 * The change feed (spec §2 /catalog/changes, /catalog/{id}/changes; §3 Config change): the filters,
 * counts by change type, one server page (50 rows by default) sorted on the server, and each row opening
 * to its diff.
 */
export function ChangeFeed({ feed, scoped }: { feed: ReturnType<typeof useChangeFeed>; scoped: boolean }) {
  const { filters, setParams, query } = feed;
  const answer = query.data;
  const rows = answer?.changes ?? [];
  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const onSortingChange = (next: SortingState) => {
    // Removing the sort returns to the default (newest first); from there, it goes oldest first.
    const removedDefault = next.length === 0 && filters.sortBy === 'created_at' && filters.sortOrder === 'desc';
    const { sortBy, sortOrder } = removedDefault ? { sortBy: 'created_at', sortOrder: 'asc' } : sortingToParams(next);
    setParams((current) => applyChangesView(current, { sortBy, sortOrder, pageIndex: undefined, change: undefined }));
  };

  return (
    <div className="flex flex-col gap-3">
      <ChangesFilterBar
        filters={filters}
        scoped={scoped}
        onFilterChange={(patch) => setParams((current) => applyChangesFilter(current, patch))}
        onTimeRangeChange={(value) => setParams((current) => applyChangesTimeRange(current, value))}
      />
      {answer ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-600" aria-live="polite">
            <span className="font-semibold text-slate-900 tabular-nums">{answer.total}</span> {answer.total === 1 ? 'change' : 'changes'}
          </p>
          <SummaryChips summary={answer.summary} selected={filters.changeType} onSelect={(changeType) => setParams((current) => applyChangesFilter(current, { changeType }))} />
        </div>
      ) : null}
      {query.error ? (
        <p role="alert" className="text-sm text-red-600">
          {query.error.message}
        </p>
      ) : null}
      <div className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
        {rows.length > 0 ? (
          <ChangesTable
            rows={rows}
            sorting={sorting}
            onSortingChange={onSortingChange}
            open={filters.change}
            onToggle={(id) => setParams((current) => applyChangesView(current, { change: filters.change === id ? undefined : id }))}
          />
        ) : query.isLoading ? (
          <Loading />
        ) : query.error ? null : (
          <EmptyState title="No data available" description="No changes match these filters in this time range." />
        )}
        {answer && answer.total > 0 ? (
          <Pagination
            pageIndex={filters.pageIndex}
            pageSize={filters.pageSize}
            totalRows={answer.total}
            pageSizeOptions={CHANGE_PAGE_SIZES}
            onChange={(next) => setParams((current) => applyChangesView(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize), change: undefined }))}
          />
        ) : null}
      </div>
    </div>
  );
}
