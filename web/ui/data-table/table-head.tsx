import { flexRender, type Table } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';

function ariaSort(direction: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
}

/** Sticky header; a sortable column is a button cycling ascending, descending, unsorted. */
export function TableHead<T>({ table }: { table: Table<T> }) {
  return (
    <thead className="sticky top-0 z-10 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => {
            const column = header.column;
            const sorted = column.getIsSorted();
            const label = header.isPlaceholder ? null : flexRender(column.columnDef.header, header.getContext());
            const size = column.columnDef.size;
            return (
              <th
                key={header.id}
                scope="col"
                aria-sort={column.getCanSort() ? ariaSort(sorted) : undefined}
                className="border-b border-slate-200 px-3 py-2"
                style={size ? { width: size } : undefined}
              >
                {column.getCanSort() && !header.isPlaceholder ? (
                  <button type="button" onClick={column.getToggleSortingHandler()} className="inline-flex items-center gap-1 uppercase hover:text-slate-900">
                    {label}
                    {sorted === 'asc' ? (
                      <ArrowUp className="size-3.5" aria-hidden="true" />
                    ) : sorted === 'desc' ? (
                      <ArrowDown className="size-3.5" aria-hidden="true" />
                    ) : (
                      <ArrowUpDown className="size-3.5 opacity-40" aria-hidden="true" />
                    )}
                  </button>
                ) : (
                  label
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}
