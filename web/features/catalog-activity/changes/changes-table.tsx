import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment, useMemo, type KeyboardEvent } from 'react';
import { ConfigLink } from '@web/features/catalog/components';
import { TableHead } from '@web/ui/data-table/table-head';
import { cn } from '@web/ui/primitives/cn';
import { SeverityBadge } from '../components/badges';
import { Ago } from '../components/ago';
import { ChangeDetails } from './change-details';
import type { FeedChange } from './schema';

/** Links stop the click from also opening the row. */
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

function columns(): ColumnDef<FeedChange>[] {
  return [
    {
      id: 'expand',
      header: () => <span className="sr-only">Open</span>,
      enableSorting: false,
      size: 32,
      cell: ({ row }) => (row.getIsExpanded() ? <ChevronDown className="size-4 text-slate-500" aria-hidden="true" /> : <ChevronRight className="size-4 text-slate-500" aria-hidden="true" />),
    },
    {
      id: 'change_type',
      header: 'Change',
      // The accessors make the columns sortable; the rows are sorted on the server.
      accessorFn: (row) => row.changeType,
      cell: ({ row }) => (
        <span className="flex min-w-0 flex-col">
          <span className="font-medium text-slate-900">{row.original.changeType}</span>
          {row.original.summary ? <span className="max-w-xl truncate text-xs text-slate-600" title={row.original.summary}>{row.original.summary}</span> : null}
        </span>
      ),
    },
    {
      id: 'name',
      header: 'Config',
      accessorFn: (row) => row.config.name,
      cell: ({ row }) => (
        <span className="flex min-w-0 flex-col">
          <ConfigLink config={row.original.config} showHealth onClick={stop} />
          <span className="text-xs text-slate-500">{row.original.config.type}</span>
        </span>
      ),
    },
    { id: 'severity', header: 'Severity', accessorFn: (row) => row.severity, cell: ({ row }) => <SeverityBadge severity={row.original.severity} /> },
    { id: 'source', header: 'Source', accessorFn: (row) => row.source, cell: ({ row }) => <span className="text-slate-700">{row.original.source ?? ''}</span> },
    { id: 'count', header: 'Count', accessorFn: (row) => row.count, cell: ({ row }) => <span className="tabular-nums">{row.original.count}</span> },
    { id: 'created_by', header: 'Created by', enableSorting: false, cell: ({ row }) => <span className="text-slate-700">{row.original.createdBy ?? ''}</span> },
    { id: 'first_observed', header: 'First seen', accessorFn: (row) => row.firstObserved, cell: ({ row }) => <Ago value={row.original.firstObserved} /> },
    { id: 'created_at', header: 'Last seen', accessorFn: (row) => row.createdAt, cell: ({ row }) => <Ago value={row.original.createdAt} /> },
  ];
}

export interface ChangesTableProps {
  rows: FeedChange[];
  sorting: SortingState;
  onSortingChange: (next: SortingState) => void;
  /** The change whose details are open. */
  open: string | undefined;
  onToggle: (id: string) => void;
}

/**
 * The feed's rows, sorted on the server; a row opens to its diff, patches and details (read then). The
 * table library draws the header; the body is drawn here, as a row may open below itself.
 */
export function ChangesTable({ rows, sorting, onSortingChange, open, onToggle }: ChangesTableProps) {
  const tableColumns = useMemo(columns, []);
  const table = useReactTable({
    data: rows,
    columns: tableColumns,
    getRowId: (row) => row.id,
    state: { sorting, expanded: open ? { [open]: true } : {} },
    onSortingChange: (updater) => onSortingChange(typeof updater === 'function' ? updater(sorting) : updater),
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: true,
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <div className="overflow-auto">
      <table aria-label="Changes" className="w-full border-collapse text-sm">
        <TableHead table={table} />
        <tbody>
          {table.getRowModel().rows.map((row) => {
            const expanded = row.getIsExpanded();
            const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
              if (event.target !== event.currentTarget) return;
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                onToggle(row.id);
              }
            };
            return (
              <Fragment key={row.id}>
                <tr
                  tabIndex={0}
                  aria-expanded={expanded}
                  onClick={() => onToggle(row.id)}
                  onKeyDown={onKeyDown}
                  className={cn('cursor-pointer border-b border-slate-100 hover:bg-slate-50 focus-visible:bg-blue-50', expanded && 'bg-slate-50')}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className="px-3 py-1.5 align-middle">
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
                {expanded ? (
                  <tr className="border-b border-slate-200 bg-slate-50">
                    <td colSpan={row.getVisibleCells().length} className="px-4 py-3">
                      <ChangeDetails id={row.id} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
