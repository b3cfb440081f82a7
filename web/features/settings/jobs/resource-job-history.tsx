import { useMemo } from 'react';
import { DEFAULT_PAGE_SIZE, SHELL_PAGE_SIZES, type DateFormat } from '@common/constants';
import { formatDate } from '@common/format/date';
import { formatDuration } from '@common/format/duration';
import { useDisplayPreferences } from '@web/lib/preferences';
import { patchSearchParams, readInteger, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { JobDetailsDialog } from './details-dialog';
import { useJobHistory, useResourceJobHistories } from './queries';
import type { JobHistory } from './schema';
import { JobStatusBadge } from './status-badge';

/** Status, Started and Duration of a run (the runs come newest first: no column sorts). */
export function runColumns(dateFormat: DateFormat, timeZone: string): ColumnDef<JobHistory>[] {
  return [
    { accessorKey: 'status', header: 'Status', enableSorting: false, cell: ({ row }) => <JobStatusBadge status={row.original.status} /> },
    { accessorKey: 'time_start', header: 'Started', enableSorting: false, cell: ({ row }) => formatDate(row.original.time_start, dateFormat, timeZone) },
    { accessorKey: 'duration_millis', header: 'Duration', enableSorting: false, cell: ({ row }) => formatDuration(row.original.duration_millis) },
  ];
}

export interface ResourceJobHistoryProps {
  /** job_history's resource_type and resource_id of the runs shown. */
  resourceType: string;
  id: string;
  /** The table's accessible name. */
  label: string;
  emptyText: string;
  /** The table's columns, in the person's date format and time zone. */
  columns: (dateFormat: DateFormat, timeZone: string) => ColumnDef<JobHistory>[];
}

/**
 * One resource's job runs, newest first, in server pages; a row opens the run's details. The page and the
 * open run are in the URL (the Job History tab of a settings resource, a scraper's runs).
 */
export function ResourceJobHistory({ resourceType, id, label, emptyText, columns }: ResourceJobHistoryProps) {
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const pageIndex = readInteger(read.pageIndex, 0);
  const pageSize = readInteger(read.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  const details = read.details;
  const { dateFormat, timeZone } = useDisplayPreferences();
  const tableColumns = useMemo(() => columns(dateFormat, timeZone), [columns, dateFormat, timeZone]);
  const jobs = useResourceJobHistories(resourceType, id, { pageIndex, pageSize });
  const rows = jobs.data?.rows ?? [];
  const open = useJobHistory(details, rows.find((row) => row.id === details));
  const patch = (change: Record<string, string | undefined>) => setParams((current) => patchSearchParams(current, change, { pageIndex: '0', pageSize: String(DEFAULT_PAGE_SIZE) }));

  return (
    <div className="flex flex-col gap-3">
      {jobs.error ? (
        <p role="alert" className="text-sm text-red-600">
          {jobs.error.message}
        </p>
      ) : null}
      <DataTable
        aria-label={label}
        data={rows}
        columns={tableColumns}
        getRowId={(row) => row.id}
        isLoading={jobs.isLoading}
        emptyText={emptyText}
        onRowClick={(row) => patch({ details: row.id })}
        pagination={{
          pageIndex,
          pageSize,
          totalRows: jobs.data?.total ?? 0,
          pageSizeOptions: SHELL_PAGE_SIZES,
          persistKey: false,
          onChange: (next) => patch({ pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) }),
        }}
      />
      {details ? <JobDetailsDialog job={open.data} loading={open.isLoading} onClose={() => patch({ details: undefined })} /> : null}
    </div>
  );
}
