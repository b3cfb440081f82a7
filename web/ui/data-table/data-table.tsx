import { SHELL_PAGE_SIZES } from '@common/constants';
import {
  getCoreRowModel,
  getExpandedRowModel,
  getGroupedRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type ExpandedState,
  type GroupingState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useState } from 'react';
import { EmptyState } from '../primitives/empty-state';
import { Loading } from '../primitives/loading';
import { cn } from '../primitives/cn';
import { storePageSize } from './page-size';
import { Pagination, type PaginationState } from './pagination';
import { TableHead } from './table-head';
import { VirtualBody } from './virtual-body';
import { nextVirtualPageSize, type VirtualPagination } from './virtual-pagination';

/** Server-side pagination: the page owns the state (usually in the URL) and fetches one page. */
export interface ServerPagination extends PaginationState {
  /** Page buttons; the default, so existing pages need not say it. */
  mode?: 'pages';
  totalRows: number;
  onChange: (next: PaginationState) => void;
  /** Defaults to the shell tables' 50, 100, 200 (spec §9). */
  pageSizeOptions?: readonly number[];
  /** localStorage key to remember the chosen size under, or false when the page keeps its own default. */
  persistKey?: string | false;
}

export interface DataTableProps<T> {
  data: T[];
  /** Plain column definitions; give each an `id` or `accessorKey`, it is the sort/group key. */
  columns: ColumnDef<T>[];
  getRowId?: (row: T, index: number) => string;
  isLoading?: boolean;
  /** Spec §8: 'No data available'. */
  emptyText?: string;
  onRowClick?: (row: T) => void;
  /** Sorting is client-side unless `manualSorting`, in which case the page sorts on the server. */
  sorting?: SortingState;
  onSortingChange?: (next: SortingState) => void;
  manualSorting?: boolean;
  /** Column ids to group by; grouped rows expand and collapse. */
  grouping?: string[];
  /**
   * Page buttons (`ServerPagination`) or, with `mode: 'virtual'`, one growing scrolled list
   * (`VirtualPagination`). In virtual mode `isLoading` shows a 'loading data...' row under the rows
   * already loaded, so keep them while the larger page loads (e.g. react-query's placeholderData).
   */
  pagination?: ServerPagination | VirtualPagination;
  /** Classes of the scrolling container; give it a bounded height for virtual rows to pay off. */
  className?: string;
  'aria-label'?: string;
}

const resolveSorting = (updater: Updater<SortingState>, current: SortingState): SortingState =>
  typeof updater === 'function' ? updater(current) : updater;

/**
 * The one table of the console (spec §2 shared widgets): single-column removable sorting, grouping,
 * virtual rows and server-side pagination (page buttons or virtual), with the spec's loading and empty texts.
 */
export function DataTable<T>({
  data,
  columns,
  getRowId,
  isLoading,
  emptyText = 'No data available',
  onRowClick,
  sorting: controlledSorting,
  onSortingChange,
  manualSorting,
  grouping,
  pagination,
  className,
  'aria-label': ariaLabel,
}: DataTableProps<T>) {
  const [localSorting, setLocalSorting] = useState<SortingState>([]);
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const sorting = controlledSorting ?? localSorting;
  const groupingState: GroupingState = grouping ?? [];

  const table = useReactTable<T>({
    data,
    columns,
    getRowId,
    state: { sorting, grouping: groupingState, expanded },
    onSortingChange: (updater) => {
      const next = resolveSorting(updater, sorting);
      if (onSortingChange) onSortingChange(next);
      else setLocalSorting(next);
    },
    onExpandedChange: setExpanded,
    manualSorting: Boolean(manualSorting),
    manualPagination: true,
    enableMultiSort: false,
    enableSortingRemoval: true,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getGroupedRowModel: getGroupedRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    autoResetExpanded: false,
  });

  const rows = table.getRowModel().rows;
  const pages = pagination?.mode === 'virtual' ? undefined : pagination;
  const virtual = pagination?.mode === 'virtual' ? pagination : undefined;
  const changePage = (next: PaginationState) => {
    if (!pages) return;
    if (next.pageSize !== pages.pageSize && pages.persistKey !== false) storePageSize(next.pageSize, pages.persistKey);
    pages.onChange(next);
  };
  // Not while a fetch is under way: the rows it brings decide whether more are needed. The doubled
  // size is not persisted, it reflects how far this visit scrolled rather than a chosen page size.
  const moreSize = virtual && !isLoading ? nextVirtualPageSize(data.length, virtual.pageSize, virtual.totalRows) : null;
  const loadMore = virtual && moreSize !== null ? () => virtual.onPageSizeChange(moreSize) : undefined;

  return (
    <div className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
      <VirtualBody
        rows={rows}
        columnCount={table.getVisibleLeafColumns().length}
        onRowClick={onRowClick}
        // relative: the scroller is the containing block of what cells position absolutely (a switch's
        // hidden label, sr-only text), so it scrolls with the table instead of widening the page.
        className={cn('scroll-cue-x relative min-h-0 flex-1 overflow-auto', className ?? 'max-h-[calc(100vh-14rem)]')}
        aria-label={ariaLabel}
        head={<TableHead table={table} />}
        onReachEnd={loadMore}
        loadingRow={Boolean(virtual && isLoading && rows.length > 0)}
      />
      {rows.length > 0 ? null : isLoading ? <Loading /> : <EmptyState title={emptyText} />}
      {pages ? (
        <Pagination
          pageIndex={pages.pageIndex}
          pageSize={pages.pageSize}
          totalRows={pages.totalRows}
          pageSizeOptions={pages.pageSizeOptions ?? SHELL_PAGE_SIZES}
          onChange={changePage}
        />
      ) : null}
    </div>
  );
}
