import { useMemo } from 'react';
import { DEFAULT_PAGE_SIZE, SHELL_PAGE_SIZES, type DateFormat } from '@common/constants';
import { formatDate, formatDuration } from '@common/format';
import { detailErrors, JobDetailsDialog } from '@web/features/settings/jobs/details-dialog';
import { useJobHistory, useResourceJobHistories } from '@web/features/settings/jobs/queries';
import type { JobHistory } from '@web/features/settings/jobs/schema';
import { JobStatusBadge } from '@web/features/settings/jobs/status-badge';
import { useDisplayPreferences } from '@web/lib/preferences';
import { patchSearchParams, readInteger, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { SCRAPER_RESOURCE_TYPE } from '../queries';

/** A count of the run's summary (server/features/catalog/run.ts writes created, updated, … into details.summary). */
export function summaryCount(job: JobHistory, key: string): number | undefined {
  const summary = job.details?.summary;
  if (typeof summary !== 'object' || summary === null) return undefined;
  const value: unknown = Reflect.get(summary, key);
  return typeof value === 'number' ? value : undefined;
}

const COUNTS = [
  ['created', 'Created'],
  ['updated', 'Updated'],
  ['unchanged', 'Unchanged'],
  ['deleted', 'Deleted'],
  ['changes', 'Changes'],
  ['analysis', 'Insights'],
] as const;

function columns(dateFormat: DateFormat, timeZone: string): ColumnDef<JobHistory>[] {
  return [
    { accessorKey: 'status', header: 'Status', enableSorting: false, cell: ({ row }) => <JobStatusBadge status={row.original.status} /> },
    { accessorKey: 'time_start', header: 'Started', enableSorting: false, cell: ({ row }) => formatDate(row.original.time_start, dateFormat, timeZone) },
    { accessorKey: 'duration_millis', header: 'Duration', enableSorting: false, cell: ({ row }) => formatDuration(row.original.duration_millis) },
    ...COUNTS.map(
      ([key, header]): ColumnDef<JobHistory> => ({
        id: key,
        header,
        enableSorting: false,
        cell: ({ row }) => <span className="tabular-nums">{summaryCount(row.original, key) ?? '-'}</span>,
      }),
    ),
    {
      id: 'errors',
      header: 'Errors',
      enableSorting: false,
      cell: ({ row }) => {
        const errors = detailErrors(row.original.details);
        if (row.original.error_count === 0) return <span className="tabular-nums">0</span>;
        return (
          <span className="flex min-w-0 flex-col">
            <span className="font-medium text-red-600 tabular-nums">{row.original.error_count}</span>
            {errors[0] ? <span className="max-w-md truncate text-xs text-red-700" title={errors[0]}>{errors[0]}</span> : null}
          </span>
        );
      },
    },
  ];
}

/**
 * The scraper's runs (job history, resource type config_scraper), newest first with their counts and
 * errors; a row opens the run's details. The page and the open run are in the URL.
 */
export function RunsTab({ id }: { id: string }) {
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const pageIndex = readInteger(read.pageIndex, 0);
  const pageSize = readInteger(read.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  const details = read.details;
  const { dateFormat, timeZone } = useDisplayPreferences();
  const tableColumns = useMemo(() => columns(dateFormat, timeZone), [dateFormat, timeZone]);
  const runs = useResourceJobHistories(SCRAPER_RESOURCE_TYPE, id, { pageIndex, pageSize });
  const rows = runs.data?.rows ?? [];
  const open = useJobHistory(details, rows.find((row) => row.id === details));
  const patch = (change: Record<string, string | undefined>) => setParams((current) => patchSearchParams(current, change, { pageIndex: '0', pageSize: String(DEFAULT_PAGE_SIZE) }));
  return (
    <div className="flex flex-col gap-3">
      {runs.error ? (
        <p role="alert" className="text-sm text-red-600">
          {runs.error.message}
        </p>
      ) : null}
      <DataTable
        aria-label="Runs"
        data={rows}
        columns={tableColumns}
        getRowId={(row) => row.id}
        isLoading={runs.isLoading}
        emptyText="No runs yet"
        onRowClick={(row) => patch({ details: row.id })}
        pagination={{
          pageIndex,
          pageSize,
          totalRows: runs.data?.total ?? 0,
          pageSizeOptions: SHELL_PAGE_SIZES,
          persistKey: false,
          onChange: (next) => patch({ pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) }),
        }}
      />
      {details ? <JobDetailsDialog job={open.data} loading={open.isLoading} onClose={() => patch({ details: undefined })} /> : null}
    </div>
  );
}
