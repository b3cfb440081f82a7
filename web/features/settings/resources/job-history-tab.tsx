import type { DateFormat } from '@common/constants';
import type { ColumnDef } from '@web/ui/data-table';
import { ResourceJobHistory, runColumns } from '../jobs/resource-job-history';
import type { JobHistory } from '../jobs/schema';
import type { ResourceTabProps } from './types';

function columns(dateFormat: DateFormat, timeZone: string): ColumnDef<JobHistory>[] {
  return [
    { accessorKey: 'name', header: 'Job Name', enableSorting: false },
    ...runColumns(dateFormat, timeZone),
    { accessorKey: 'success_count', header: 'Success', enableSorting: false },
    { accessorKey: 'error_count', header: 'Errors', enableSorting: false },
  ];
}

/**
 * The Job History tab of a detail page (spec "Generic resource editor"): this row's job runs, newest
 * first, in server pages; the page and the open details dialog are in the URL.
 */
export default function JobHistoryTab({ resource, id }: ResourceTabProps) {
  return (
    <ResourceJobHistory
      resourceType={resource.jobHistory?.resourceType ?? resource.table}
      id={id}
      label="Job history"
      emptyText={resource.jobHistory?.emptyText ?? 'No data available'}
      columns={columns}
    />
  );
}
