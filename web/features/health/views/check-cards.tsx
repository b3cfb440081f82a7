import { VIRTUAL_OVERSCAN } from '@common/constants';
import { formatLatency, formatUptime } from '@common/format';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import type { CheckSummary } from '../api/schema';
import { displayName } from '../state/checks';
import type { SortColumn } from '../state/params';
import { sortChecks } from '../state/sort';
import { CheckIcon } from '@web/ui/check-icon';
import { HealthDot } from '../table/cells';

const CARD_MIN_WIDTH = 260;
const CARD_ROW_HEIGHT = 92;
const GAP = 12;

/** Cards per row for a container width. */
export function cardsPerRow(width: number): number {
  return Math.max(1, Math.floor((width + GAP) / (CARD_MIN_WIDTH + GAP)));
}

function CheckCard({ check, onOpen }: { check: CheckSummary; onOpen: (check: CheckSummary) => void }) {
  const name = displayName(check);
  return (
    <button
      type="button"
      onClick={() => onOpen(check)}
      className="flex h-20 w-full min-w-0 flex-col justify-between rounded-lg border border-slate-200 bg-white p-3 text-left shadow-sm hover:border-blue-300 hover:bg-blue-50/40 focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      <span className="flex min-w-0 items-center gap-2">
        <HealthDot tone={check.status ?? 'unknown'} />
        <CheckIcon icon={check.icon} type={check.type} />
        <span className="truncate text-sm font-medium text-slate-900" title={name}>
          {name}
        </span>
      </span>
      <span className="flex items-center justify-between gap-2 text-xs text-slate-500">
        <span className="truncate">{check.canary_name}</span>
        <span className="shrink-0 tabular-nums">
          {[formatUptime(check.uptime.passed, check.uptime.failed), formatLatency(check.latency.p95)].filter(Boolean).join(' · ')}
        </span>
      </span>
    </button>
  );
}

/** layout=card (spec §2): a grid of cards, rows virtualised like the table's. */
interface CheckCardsProps {
  checks: CheckSummary[];
  /** The cards follow the table's sort (spec §2 sortBy, sortDesc). */
  sortBy: SortColumn;
  sortDesc: boolean;
  isLoading: boolean;
  onOpenCheck: (check: CheckSummary) => void;
}

export const CheckCards = memo(function CheckCards({ checks: unsorted, sortBy, sortDesc, isLoading, onOpenCheck }: CheckCardsProps) {
  const checks = useMemo(() => sortChecks(unsorted, sortBy, sortDesc), [unsorted, sortBy, sortDesc]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [perRow, setPerRow] = useState(1);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const measure = () => setPerRow(cardsPerRow(element.clientWidth - 2 * GAP));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const rowCount = Math.ceil(checks.length / perRow);
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CARD_ROW_HEIGHT,
    overscan: VIRTUAL_OVERSCAN,
  });
  return (
    <div ref={scrollRef} role="list" aria-label="Health checks" className="max-h-[calc(100vh-13rem)] min-h-64 overflow-auto rounded-lg border border-slate-200 bg-slate-50">
      {checks.length === 0 ? isLoading ? <Loading /> : <EmptyState /> : null}
      <div className="relative" style={{ height: checks.length === 0 ? 0 : virtualizer.getTotalSize() + GAP }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            className="absolute inset-x-0 grid"
            style={{ top: item.start + GAP, gap: GAP, paddingInline: GAP, gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))` }}
          >
            {checks.slice(item.index * perRow, item.index * perRow + perRow).map((check) => (
              <div key={check.id} role="listitem" className="min-w-0">
                <CheckCard check={check} onOpen={onOpenCheck} />
              </div>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
});
