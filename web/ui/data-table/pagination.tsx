import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { IconButton } from '../primitives/icon-button';

export interface PaginationState {
  pageIndex: number;
  pageSize: number;
}

export interface PaginationProps extends PaginationState {
  totalRows: number;
  pageSizeOptions: readonly number[];
  onChange: (next: PaginationState) => void;
}

export function pageCountOf(totalRows: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, totalRows) / Math.max(1, pageSize)));
}

/** Clamp a typed page number into 1..pageCount (spec §5); NaN keeps the current page. */
export function clampPageNumber(input: number, current: number, pageCount: number): number {
  if (!Number.isFinite(input)) return current;
  return Math.min(pageCount, Math.max(1, Math.trunc(input)));
}

export function Pagination({ pageIndex, pageSize, totalRows, pageSizeOptions, onChange }: PaginationProps) {
  const pageCount = pageCountOf(totalRows, pageSize);
  const page = Math.min(pageIndex + 1, pageCount);
  const [typed, setTyped] = useState(String(page));
  const sizeId = useId();
  useEffect(() => setTyped(String(page)), [page]);

  const goTo = (pageNumber: number) => onChange({ pageIndex: pageNumber - 1, pageSize });
  const commitTyped = () => {
    const next = clampPageNumber(Number(typed), page, pageCount);
    setTyped(String(next));
    if (next !== page) goTo(next);
  };
  const first = totalRows === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(totalRows, page * pageSize);
  const options = pageSizeOptions.includes(pageSize) ? pageSizeOptions : [...pageSizeOptions, pageSize].sort((a, b) => a - b);

  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-3 py-2 text-sm text-slate-600">
      <span>
        Showing {first}–{last} of {totalRows}
      </span>
      <div className="flex items-center gap-1">
        <label htmlFor={sizeId} className="mr-1">
          Rows per page
        </label>
        <select
          id={sizeId}
          value={pageSize}
          onChange={(event) => onChange({ pageIndex: 0, pageSize: Number(event.target.value) })}
          className="mr-3 h-8 rounded-md border border-slate-300 bg-white px-2"
        >
          {options.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <IconButton label="First page" icon={<ChevronsLeft className="size-4" />} disabled={page <= 1} onClick={() => goTo(1)} noTooltip />
        <IconButton label="Previous page" icon={<ChevronLeft className="size-4" />} disabled={page <= 1} onClick={() => goTo(page - 1)} noTooltip />
        <span className="flex items-center gap-1 px-1">
          Page
          <input
            type="number"
            aria-label="Page number"
            min={1}
            max={pageCount}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onBlur={commitTyped}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commitTyped();
            }}
            className="h-8 w-16 rounded-md border border-slate-300 px-2 text-center"
          />
          of {pageCount}
        </span>
        <IconButton label="Next page" icon={<ChevronRight className="size-4" />} disabled={page >= pageCount} onClick={() => goTo(page + 1)} noTooltip />
        <IconButton label="Last page" icon={<ChevronsRight className="size-4" />} disabled={page >= pageCount} onClick={() => goTo(pageCount)} noTooltip />
      </div>
    </nav>
  );
}
