import type { DateFormat } from '@common/constants';
import { detailErrors } from '@web/features/settings/jobs/details-dialog';
import { ResourceJobHistory, runColumns } from '@web/features/settings/jobs/resource-job-history';
import type { JobHistory } from '@web/features/settings/jobs/schema';
import type { ColumnDef } from '@web/ui/data-table';
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
    ...runColumns(dateFormat, timeZone),
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
  return <ResourceJobHistory resourceType={SCRAPER_RESOURCE_TYPE} id={id} label="Runs" emptyText="No runs yet" columns={columns} />;
}
