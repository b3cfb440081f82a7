import { VIRTUAL_OVERSCAN, VIRTUAL_ROW_HEIGHT } from '@common/constants';
import * as RadixPopover from '@radix-ui/react-popover';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, useState } from 'react';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { fetchCheckPage, pivotCellRequest, type CheckPageRequest } from '../api/check-page';
import { healthKeys } from '../api/keys';
import { displayName } from '../state/checks';
import type { PivotCellType } from '../state/params';
import { PIVOT_CELL_CHECKS, summarisePivotCell, type PivotAnswer, type PivotCell } from '../state/pivot';
import { HealthDot } from '../table/cells';

interface PivotTableProps {
  /** The server's pivot (POST /api/health/checks with pivotBy); undefined while it loads. */
  pivot: PivotAnswer | undefined;
  /** The request that answered it: a cell's further checks are asked with it. */
  request: CheckPageRequest;
  pivotBy: string;
  pivotLabel: string | undefined;
  cellType: PivotCellType;
  isLoading: boolean;
  onOpenCheck: (check: { id: string }) => void;
}

const cellButton = 'inline-flex w-full items-center gap-1.5 rounded px-2 py-1 text-left text-sm tabular-nums hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600';
const pageButton = 'rounded px-2 py-0.5 text-xs text-blue-700 hover:bg-slate-100 disabled:text-slate-400 disabled:hover:bg-transparent';

/**
 * A cell's checks, PIVOT_CELL_CHECKS at a time: the first page came with the pivot (unless the answer had
 * listed its share of checks already), the others are asked for.
 */
function CellChecks({ cell, where, request, onOpenCheck }: { cell: PivotCell; where: { row: string; column: string }; request: CheckPageRequest; onOpenCheck: (check: { id: string }) => void }) {
  const [page, setPage] = useState(0);
  const given = page === 0 && cell.checks.length > 0;
  const asked = pivotCellRequest(request, where, page, PIVOT_CELL_CHECKS);
  const more = useQuery({
    queryKey: healthKeys.page(asked),
    queryFn: ({ signal }) => fetchCheckPage(asked, signal),
    placeholderData: keepPreviousData,
    enabled: !given,
  });
  const checks = given ? cell.checks : (more.data?.checks.map((check) => ({ id: check.id, name: displayName(check), status: check.status })) ?? []);
  const total = given ? cell.count : (more.data?.total ?? cell.count);
  const shown = Math.min(total, page * PIVOT_CELL_CHECKS + checks.length);
  return (
    <>
      {checks.map((check) => (
        <button key={check.id} type="button" className={cellButton} onClick={() => onOpenCheck(check)}>
          <HealthDot tone={check.status ?? 'unknown'} />
          <span className="truncate">{check.name}</span>
        </button>
      ))}
      {!given && more.isLoading ? <Loading /> : null}
      {total > PIVOT_CELL_CHECKS ? (
        <div className="flex items-center gap-1 border-t border-slate-100 px-2 pt-1 text-xs text-slate-600">
          <span className="mr-auto">{shown < total ? `and ${total - shown} more` : `${page * PIVOT_CELL_CHECKS + 1}–${shown} of ${total}`}</span>
          <button type="button" className={pageButton} disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <button type="button" className={pageButton} disabled={shown >= total} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </div>
      ) : null}
    </>
  );
}

/** One cell: a single check opens directly; several open a list to pick from. */
function PivotCellView({ cell, where, request, cellType, onOpenCheck }: { cell: PivotCell; where: { row: string; column: string }; request: CheckPageRequest; cellType: PivotCellType; onOpenCheck: (check: { id: string }) => void }) {
  const summary = summarisePivotCell(cell, cellType);
  const label = `${where.row} / ${where.column}`;
  const content = (
    <>
      <HealthDot tone={summary.tone} />
      {summary.text}
    </>
  );
  // A single check opens at once when the answer listed it; otherwise the popover asks for it.
  const only = cell.count === 1 ? cell.checks[0] : undefined;
  if (only) {
    return (
      <button type="button" className={cellButton} aria-label={`${label}: ${only.name}`} onClick={() => onOpenCheck(only)}>
        {content}
      </button>
    );
  }
  return (
    <RadixPopover.Root>
      <RadixPopover.Trigger className={cellButton} aria-label={`${label}: ${cell.count} check${cell.count === 1 ? '' : 's'}`}>
        {content}
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content aria-label={label} sideOffset={4} className="z-50 max-h-80 w-72 overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
          <CellChecks cell={cell} where={where} request={request} onOpenCheck={onOpenCheck} />
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

const NO_ROWS: string[] = [];

/** pivotBy rows × pivotLabel columns (docs/HEALTH.md "Pivot") as the server built them, rows virtualised. */
export const PivotTable = memo(function PivotTable({ pivot, request, pivotBy, pivotLabel, cellType, isLoading, onOpenCheck }: PivotTableProps) {
  const rows = pivot?.rows ?? NO_ROWS;
  const columns = pivot?.columns ?? NO_ROWS;
  const cells = useMemo(() => new Map((pivot?.cells ?? []).map((cell) => [`${cell.row}:${cell.column}`, cell])), [pivot]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => VIRTUAL_ROW_HEIGHT, overscan: VIRTUAL_OVERSCAN });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const cutRows = pivot && pivot.totalRows > rows.length;
  const cutColumns = pivot && pivot.totalColumns > columns.length;
  return (
    <div className="flex flex-col gap-2">
      {pivot && (cutRows || cutColumns) ? (
        <p role="status" className="text-sm text-amber-700">
          Showing the first {[cutRows ? `${rows.length} of ${pivot.totalRows} rows` : '', cutColumns ? `${columns.length} of ${pivot.totalColumns} columns` : ''].filter(Boolean).join(' and ')}: narrow the search or the filters to see the others.
        </p>
      ) : null}
      <div ref={scrollRef} className="max-h-[calc(100vh-13rem)] min-h-64 overflow-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full border-collapse text-sm" aria-label={`Health checks by ${pivotBy}${pivotLabel ? ` and ${pivotLabel}` : ''}`}>
          <thead className="sticky top-0 z-10 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="border-b border-slate-200 px-3 py-2">
                {pivotBy}
              </th>
              {columns.map((column) => (
                <th key={column} scope="col" className="border-b border-slate-200 px-3 py-2 normal-case">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {top > 0 ? <tr aria-hidden="true" style={{ height: top }} /> : null}
            {items.map((item) => {
              const row = rows[item.index] ?? '';
              return (
                <tr key={row} ref={virtualizer.measureElement} data-index={item.index} className="border-b border-slate-100">
                  <th scope="row" className="px-3 py-1.5 text-left font-medium text-slate-900">
                    {row}
                  </th>
                  {columns.map((column, c) => {
                    const cell = cells.get(`${item.index}:${c}`);
                    return (
                      <td key={column} className="px-1 py-0.5">
                        {cell ? <PivotCellView cell={cell} where={{ row, column }} request={request} cellType={cellType} onOpenCheck={onOpenCheck} /> : null}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {bottom > 0 ? <tr aria-hidden="true" style={{ height: bottom }} /> : null}
          </tbody>
        </table>
        {rows.length === 0 ? isLoading ? <Loading /> : <EmptyState /> : null}
      </div>
    </div>
  );
});
