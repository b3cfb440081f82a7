import { useUrlParams } from '@web/lib/use-url-params';
import { formatDate } from '@common/format/date';
import { useDisplayPreferences } from '@web/lib/preferences';
import { DataTable, sortingFromParams, sortingToParams, type ColumnDef, type SortingState } from '@web/ui/data-table';
import { QueryPage } from '@web/ui/query-page';
import { patchSearchParams, readSearchParams } from '@web/lib/url-state';
import { useEventQueueSummary, type EventQueueSummary } from './queries';

const SORTABLE = ['name', 'consumer', 'pending', 'retrying', 'failed', 'average_attempts', 'first_failure', 'last_failure', 'oldest'] as const;

export default function EventQueuePage() {
  const query = useEventQueueSummary();
  const { dateFormat, timeZone } = useDisplayPreferences();
  const [params, setParams] = useUrlParams();
  const state = readSearchParams(params);
  const sorting = sortingFromParams(state.sortBy, state.sortOrder, SORTABLE);
  const setSorting = (next: SortingState) => setParams((current) => patchSearchParams(current, { sortBy: undefined, sortOrder: undefined, ...sortingToParams(next) }));
  const date = (value: string | null) => formatDate(value, dateFormat, timeZone);

  const columns: ColumnDef<EventQueueSummary>[] = [
    { accessorKey: 'name', header: 'Event' },
    { accessorKey: 'consumer', header: 'Consumer', cell: ({ row }) => row.original.consumer || <span className="text-muted-foreground">no consumer yet</span> },
    { accessorKey: 'pending', header: 'Pending' },
    { accessorKey: 'retrying', header: 'Retrying' },
    { accessorKey: 'failed', header: 'Failed', cell: ({ row }) => <span className={row.original.failed > 0 ? 'font-medium text-red-600' : undefined}>{row.original.failed}</span> },
    { accessorKey: 'average_attempts', header: 'Avg attempts', cell: ({ row }) => row.original.average_attempts?.toFixed(2) ?? '' },
    { accessorKey: 'oldest', header: 'Oldest', cell: ({ row }) => date(row.original.oldest) },
    { accessorKey: 'first_failure', header: 'First failure', cell: ({ row }) => date(row.original.first_failure) },
    { accessorKey: 'last_failure', header: 'Last failure', cell: ({ row }) => date(row.original.last_failure) },
    {
      accessorKey: 'most_common_error',
      header: 'Most common error',
      enableSorting: false,
      cell: ({ row }) => <span className="line-clamp-2 font-mono text-xs text-slate-600" title={row.original.most_common_error ?? undefined}>{row.original.most_common_error}</span>,
    },
  ];

  return (
    <QueryPage title="Event Queue" query={query}>
      <DataTable
        aria-label="Event queue"
        data={query.data ?? []}
        columns={columns}
        getRowId={(row) => `${row.name}:${row.consumer}`}
        isLoading={query.isLoading}
        sorting={sorting}
        onSortingChange={setSorting}
      />
    </QueryPage>
  );
}
