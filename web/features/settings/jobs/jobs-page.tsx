import { useMemo } from 'react';
import { useUrlParams } from '@web/lib/use-url-params';
import { useDisplayPreferences } from '@web/lib/preferences';
import { DataTable, sortingToParams, type SortingState } from '@web/ui/data-table';
import { QueryPage } from '@web/ui/query-page';
import { jobColumns } from './columns';
import { JobDetailsDialog } from './details-dialog';
import { JobsFilterBar } from './filter-bar';
import { applyFilterChange, applyTimeRangeChange, applyViewChange, JOB_PAGE_SIZES, parseJobsFilters } from './filters';
import { useJobHistories, useJobHistory, useJobHistoryNames } from './queries';

export default function JobsHistoryPage() {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseJobsFilters(params), [params]);
  const { details, refresh, ...queryFilters } = filters;
  const { dateFormat, timeZone } = useDisplayPreferences();
  const columns = useMemo(() => jobColumns(dateFormat, timeZone), [dateFormat, timeZone]);
  const jobs = useJobHistories(queryFilters, refresh);
  const names = useJobHistoryNames();
  const rows = jobs.data?.rows ?? [];
  const open = useJobHistory(details, rows.find((row) => row.id === details));

  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const onSortingChange = (next: SortingState) => {
    // Removing the sort returns to the default order (newest first) rather than an unordered page.
    // The default sort is time_start desc, so removing it from there would change nothing: go ascending.
    const removedDefault = next.length === 0 && filters.sortBy === 'time_start' && filters.sortOrder === 'desc';
    const { sortBy, sortOrder } = removedDefault ? { sortBy: 'time_start', sortOrder: 'asc' } : sortingToParams(next);
    setParams((current) => applyViewChange(current, { sortBy, sortOrder, pageIndex: undefined }));
  };

  return (
    <QueryPage
      title="Jobs History"
      query={jobs}
      toolbar={
        <JobsFilterBar
          filters={filters}
          names={names.data ?? []}
          onFilterChange={(patch) => setParams((current) => applyFilterChange(current, patch))}
          onTimeRangeChange={(value) => setParams((current) => applyTimeRangeChange(current, value))}
        />
      }
    >
      <DataTable
        aria-label="Job history"
        data={rows}
        columns={columns}
        getRowId={(row) => row.id}
        isLoading={jobs.isLoading}
        manualSorting
        sorting={sorting}
        onSortingChange={onSortingChange}
        onRowClick={(row) => setParams((current) => applyViewChange(current, { details: row.id }))}
        pagination={{
          pageIndex: filters.pageIndex,
          pageSize: filters.pageSize,
          totalRows: jobs.data?.total ?? 0,
          pageSizeOptions: JOB_PAGE_SIZES,
          persistKey: false,
          onChange: (next) => setParams((current) => applyViewChange(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
        }}
      />
      {details ? (
        <JobDetailsDialog job={open.data} loading={open.isLoading} onClose={() => setParams((current) => applyViewChange(current, { details: undefined }))} />
      ) : null}
    </QueryPage>
  );
}
