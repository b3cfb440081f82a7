import { VIRTUAL_OVERSCAN, VIRTUAL_ROW_HEIGHT } from '@common/constants';
import { flexRender, type Row } from '@tanstack/react-table';
import { measureElement, observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useEffect, useEffectEvent, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Loading } from '../primitives/loading';
import { cn } from '../primitives/cn';

/**
 * A container that has not been laid out yet (a hidden tab, a test DOM) measures 0 px high; the
 * virtualizer would then render no row at all, so it is told a screenful instead.
 */
const UNMEASURED_HEIGHT = 600;
function observeRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: UNMEASURED_HEIGHT }));
}
/** Likewise a row that measures 0 px counts at the estimate. */
function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const size = measureElement(element, entry, instance);
  return size > 0 ? size : VIRTUAL_ROW_HEIGHT;
}

interface VirtualBodyProps<T> {
  rows: Row<T>[];
  columnCount: number;
  head: ReactNode;
  onRowClick?: (row: T) => void;
  className?: string;
  'aria-label'?: string;
  /** Called when the last row is rendered (in view or within the overscan), e.g. to load more. */
  onReachEnd?: () => void;
  /** A 'loading data...' row after the rows, while more of them load. */
  loadingRow?: boolean;
}

/** The scrolling table with only the visible rows in the DOM (spec §9: estimate 35 px, overscan 10). */
export function VirtualBody<T>({ rows, columnCount, head, onRowClick, className, 'aria-label': ariaLabel, onReachEnd, loadingRow }: VirtualBodyProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => VIRTUAL_ROW_HEIGHT,
    overscan: VIRTUAL_OVERSCAN,
    observeElementRect: observeRect,
    measureElement: measureRow,
  });
  const items = virtualizer.getVirtualItems();
  // Spacer rows keep the table's own layout (and its semantics) instead of absolutely placed rows.
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);

  const lastIndex = items[items.length - 1]?.index ?? -1;
  const atEnd = rows.length > 0 && lastIndex >= rows.length - 1;
  const reachEnd = useEffectEvent(() => onReachEnd?.());
  // Fires on arriving at the end, when rows arrive while still there (a tall screen), and when the
  // table becomes ready to load more while there; a re-render alone does not ask again.
  const canReachEnd = Boolean(onReachEnd);
  useEffect(() => {
    if (atEnd && canReachEnd) reachEnd();
  }, [atEnd, rows.length, canReachEnd]);

  return (
    <div ref={scrollRef} className={className}>
      <table className="w-full border-collapse text-sm" aria-label={ariaLabel}>
        {head}
        <tbody>
          {top > 0 ? <tr aria-hidden="true" style={{ height: top }} /> : null}
          {items.map((item) => {
            const row = rows[item.index];
            return row ? <BodyRow key={row.id} row={row} index={item.index} measure={virtualizer.measureElement} onRowClick={onRowClick} columnCount={columnCount} /> : null;
          })}
          {bottom > 0 ? <tr aria-hidden="true" style={{ height: bottom }} /> : null}
          {loadingRow ? (
            <tr>
              <td colSpan={columnCount}>
                <Loading className="py-2" />
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

interface BodyRowProps<T> {
  row: Row<T>;
  index: number;
  columnCount: number;
  measure: (node: Element | null) => void;
  onRowClick?: (row: T) => void;
}

function BodyRow<T>({ row, index, measure, onRowClick }: BodyRowProps<T>) {
  const grouped = row.getIsGrouped();
  const activate = () => {
    if (grouped) row.toggleExpanded();
    else onRowClick?.(row.original);
  };
  const clickable = grouped || Boolean(onRowClick);
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate();
    }
  };
  return (
    <tr
      ref={measure}
      data-index={index}
      tabIndex={clickable ? 0 : undefined}
      aria-expanded={grouped ? row.getIsExpanded() : undefined}
      onClick={clickable ? activate : undefined}
      onKeyDown={clickable ? onKeyDown : undefined}
      className={cn('border-b border-slate-100', clickable && 'cursor-pointer hover:bg-slate-50 focus-visible:bg-blue-50', grouped && 'bg-slate-50/60 font-medium')}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} className="px-3 py-1.5 align-middle" style={{ paddingLeft: cell.column.getIsFirstColumn() ? 12 + row.depth * 16 : undefined }}>
          {cell.getIsGrouped() ? (
            <span className="inline-flex items-center gap-1">
              {row.getIsExpanded() ? <ChevronDown className="size-4" aria-hidden="true" /> : <ChevronRight className="size-4" aria-hidden="true" />}
              {flexRender(cell.column.columnDef.cell, cell.getContext())}
              <span className="text-slate-500">({row.subRows.length})</span>
            </span>
          ) : cell.getIsAggregated() ? (
            flexRender(cell.column.columnDef.aggregatedCell ?? null, cell.getContext())
          ) : cell.getIsPlaceholder() ? null : (
            flexRender(cell.column.columnDef.cell, cell.getContext())
          )}
        </td>
      ))}
    </tr>
  );
}
