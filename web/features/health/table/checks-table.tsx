import { memo, useMemo } from 'react';
import { DataTable, type ServerPagination, type SortingState } from '@web/ui/data-table';
import type { CheckSummary } from '../api/schema';
import { NO_GROUP } from '../state/checks';
import type { SortColumn } from '../state/params';
import { checkColumns, GROUP_COLUMN_ID } from './columns';

export interface ChecksTableProps {
  checks: CheckSummary[];
  groupBy: string;
  sortBy: SortColumn;
  sortDesc: boolean;
  isLoading: boolean;
  /** Server-side pages (the Health list): sorting is then the server's too. Without it, sorted here. */
  pagination?: ServerPagination;
  /** A sort column and direction; undefined when the sort was removed (the default order returns). */
  onSortChange: (sort: { sortBy: SortColumn; sortDesc: boolean } | undefined) => void;
  onOpenCheck: (check: CheckSummary) => void;
}

function isSortColumn(id: string): id is SortColumn {
  return id === 'name' || id === 'status' || id === 'uptime' || id === 'latency' || id === 'last_transition_time';
}

/**
 * The checks table (spec §2): virtual rows, grouping and single-column sorting in the browser, so 10,000
 * checks stay responsive. Memoised: it renders again only when its data or view settings change, not
 * while someone types in the search box or opens a filter.
 */
export const ChecksTable = memo(function ChecksTable({ checks, groupBy, sortBy, sortDesc, isLoading, pagination, onSortChange, onOpenCheck }: ChecksTableProps) {
  const columns = useMemo(() => checkColumns(groupBy), [groupBy]);
  const grouping = useMemo(() => (groupBy === NO_GROUP ? [] : [GROUP_COLUMN_ID]), [groupBy]);
  const sorting: SortingState = useMemo(() => [{ id: sortBy, desc: sortDesc }], [sortBy, sortDesc]);
  return (
    <DataTable
      aria-label="Health checks"
      data={checks}
      columns={columns}
      getRowId={(check) => check.id}
      grouping={grouping}
      sorting={sorting}
      onSortingChange={(next) => {
        const first = next[0];
        onSortChange(first && isSortColumn(first.id) ? { sortBy: first.id, sortDesc: first.desc } : undefined);
      }}
      onRowClick={onOpenCheck}
      isLoading={isLoading}
      manualSorting={Boolean(pagination)}
      {...(pagination ? { pagination } : {})}
      className="max-h-[calc(100vh-13rem)]"
    />
  );
});
