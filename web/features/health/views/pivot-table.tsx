import { VIRTUAL_OVERSCAN, VIRTUAL_ROW_HEIGHT } from '@common/constants';
import * as RadixPopover from '@radix-ui/react-popover';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef } from 'react';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import type { CheckSummary } from '../api/schema';
import { displayName } from '../state/checks';
import type { PivotCellType } from '../state/params';
import { buildPivot, summarisePivotCell } from '../state/pivot';
import { HealthDot } from '../table/cells';

interface PivotTableProps {
  checks: CheckSummary[];
  pivotBy: string;
  pivotLabel: string | undefined;
  cellType: PivotCellType;
  isLoading: boolean;
  onOpenCheck: (check: CheckSummary) => void;
}

const cellButton = 'inline-flex w-full items-center gap-1.5 rounded px-2 py-1 text-left text-sm tabular-nums hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600';

/** One cell: a single check opens directly; several open a list to pick from. */
function PivotCell({ checks, cellType, label, onOpenCheck }: { checks: CheckSummary[]; cellType: PivotCellType; label: string; onOpenCheck: (check: CheckSummary) => void }) {
  const summary = summarisePivotCell(checks, cellType);
  const content = (
    <>
      <HealthDot tone={summary.tone} />
      {summary.text}
    </>
  );
  const only = checks.length === 1 ? checks[0] : undefined;
  if (only) {
    return (
      <button type="button" className={cellButton} aria-label={`${label}: ${displayName(only)}`} onClick={() => onOpenCheck(only)}>
        {content}
      </button>
    );
  }
  return (
    <RadixPopover.Root>
      <RadixPopover.Trigger className={cellButton} aria-label={`${label}: ${checks.length} checks`}>
        {content}
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content aria-label={label} sideOffset={4} className="z-50 max-h-72 w-72 overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
          {checks.map((check) => (
            <button key={check.id} type="button" className={cellButton} onClick={() => onOpenCheck(check)}>
              <HealthDot tone={check.status ?? 'unknown'} />
              <span className="truncate">{displayName(check)}</span>
            </button>
          ))}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

/** pivotBy rows × pivotLabel columns (docs/HEALTH.md "Pivot"), rows virtualised. */
export const PivotTable = memo(function PivotTable({ checks, pivotBy, pivotLabel, cellType, isLoading, onOpenCheck }: PivotTableProps) {
  const pivot = useMemo(() => buildPivot(checks, pivotBy, pivotLabel), [checks, pivotBy, pivotLabel]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: pivot.rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => VIRTUAL_ROW_HEIGHT, overscan: VIRTUAL_OVERSCAN });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return (
    <div ref={scrollRef} className="max-h-[calc(100vh-13rem)] min-h-64 overflow-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full border-collapse text-sm" aria-label={`Health checks by ${pivotBy}${pivotLabel ? ` and ${pivotLabel}` : ''}`}>
        <thead className="sticky top-0 z-10 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="border-b border-slate-200 px-3 py-2">
              {pivotBy}
            </th>
            {pivot.columns.map((column) => (
              <th key={column} scope="col" className="border-b border-slate-200 px-3 py-2 normal-case">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {top > 0 ? <tr aria-hidden="true" style={{ height: top }} /> : null}
          {items.map((item) => {
            const row = pivot.rows[item.index] ?? '';
            return (
              <tr key={row} ref={virtualizer.measureElement} data-index={item.index} className="border-b border-slate-100">
                <th scope="row" className="px-3 py-1.5 text-left font-medium text-slate-900">
                  {row}
                </th>
                {pivot.columns.map((column) => {
                  const cell = pivot.cell(row, column);
                  return (
                    <td key={column} className="px-1 py-0.5">
                      {cell ? <PivotCell checks={cell} cellType={cellType} label={`${row} / ${column}`} onOpenCheck={onOpenCheck} /> : null}
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {bottom > 0 ? <tr aria-hidden="true" style={{ height: bottom }} /> : null}
        </tbody>
      </table>
      {pivot.rows.length === 0 ? isLoading ? <Loading /> : <EmptyState /> : null}
    </div>
  );
});
