import { VIEW_TABLE_PAGE_SIZE } from '@common/constants';
import { useMemo } from 'react';
import { DataTable, type ColumnDef, type SortingState } from '@web/ui/data-table';
import type { ViewColumn, ViewRow } from '../api/schema';
import { useViewRows } from '../api/view';
import { filterKind, type TableState } from '../model/table-state';
import { ViewCell } from './cells/view-cell';
import { ColumnFilter } from './column-filter';

/** Columns drawn as columns: not hidden, and not a url helper `for` another column (it makes that one a link). */
export function shownColumns(columns: readonly ViewColumn[]): ViewColumn[] {
  return columns.filter((c) => !c.hidden && !(c.type === 'url' && c.for));
}

export interface ViewTableProps {
  title: string;
  table: string;
  fingerprint: string;
  columns: ViewColumn[];
  refreshedAt: string | null | undefined;
  state: TableState;
  onStateChange: (next: TableState) => void;
}

/**
 * The view's rows, a page of 50 at a time from /api/db/{table} (request_fingerprint = this selection):
 * sorting on the server by a header click, a filter per column, paging with the Content-Range total.
 */
export function ViewTable({ title, table, fingerprint, columns, refreshedAt, state, onStateChange }: ViewTableProps) {
  const rows = useViewRows({ table, fingerprint, columns, state, refreshedAt });
  const shown = useMemo(() => shownColumns(columns), [columns]);
  const defs = useMemo<ColumnDef<ViewRow>[]>(
    () =>
      shown.map((column) => ({
        id: column.name,
        accessorFn: (row: ViewRow) => row[column.name],
        header: () => <span title={column.description ?? undefined}>{column.label || column.name}</span>,
        cell: ({ row }) => <ViewCell column={column} row={row.original} columns={columns} />,
        enableSorting: column.type !== 'labels',
        // The first click sorts ascending whatever the type (TanStack would start numbers descending).
        sortDescFirst: false,
      })),
    [shown, columns],
  );
  const sorting: SortingState = state.sort ? [state.sort] : [];
  const filterable = shown.filter((c) => filterKind(c) !== 'none');
  const keyColumns = columns.filter((c) => c.primaryKey).map((c) => c.name);
  return (
    <div className="flex flex-col gap-2">
      {filterable.length > 0 ? (
        <div role="group" aria-label="Column filters" className="flex flex-wrap items-center gap-2">
          {filterable.map((column) => (
            <ColumnFilter
              key={column.name}
              column={column}
              table={table}
              fingerprint={fingerprint}
              values={state.filters[column.name] ?? []}
              onChange={(values) => {
                const filters = { ...state.filters };
                if (values.length === 0) delete filters[column.name];
                else filters[column.name] = values;
                onStateChange({ ...state, filters, pageIndex: 0 });
              }}
            />
          ))}
        </div>
      ) : null}
      {rows.error ? (
        <p role="alert" className="text-sm text-red-600">
          {rows.error.message}
        </p>
      ) : null}
      <DataTable
        aria-label={title}
        data={rows.data?.rows ?? []}
        columns={defs}
        getRowId={keyColumns.length > 0 ? (row, index) => keyColumns.map((k) => String(row[k])).join('\u0000') || String(index) : undefined}
        isLoading={rows.isPending || (rows.isFetching && rows.isPlaceholderData)}
        emptyText="No rows"
        manualSorting
        sorting={sorting}
        onSortingChange={(next) => {
          const first = next[0];
          onStateChange({ ...state, sort: first ? { id: first.id, desc: first.desc } : null, pageIndex: 0 });
        }}
        pagination={{
          pageIndex: state.pageIndex,
          pageSize: VIEW_TABLE_PAGE_SIZE,
          totalRows: rows.data?.total ?? 0,
          pageSizeOptions: [VIEW_TABLE_PAGE_SIZE],
          persistKey: false,
          onChange: (next) => onStateChange({ ...state, pageIndex: next.pageIndex }),
        }}
        className="max-h-[70vh]"
      />
    </div>
  );
}
