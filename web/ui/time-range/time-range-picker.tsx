import * as Popover from '@radix-ui/react-popover';
import { Clock } from 'lucide-react';
import { useState } from 'react';
import { buttonBase } from '../primitives/button';
import { cn } from '../primitives/cn';
import { AbsoluteForm } from './absolute-form';
import { QUICK_RANGES } from './mapped';
import { readRecentRanges, rememberRange } from './recent';
import { PAST_RANGE_OPTIONS } from './relative';
import { resolveTimeRange } from './resolve';
import type { TimeRangeValue } from './types';

export interface TimeRangePickerProps {
  value: TimeRangeValue;
  onChange: (value: TimeRangeValue) => void;
  className?: string;
}

function safeResolve(value: TimeRangeValue) {
  try {
    return resolveTimeRange(value);
  } catch (error) {
    console.warn(error);
    return null;
  }
}

function RangeList({ title, ranges, current, onPick }: { title: string; ranges: readonly TimeRangeValue[]; current: TimeRangeValue; onPick: (v: TimeRangeValue) => void }) {
  return (
    <section className="flex min-w-40 flex-col gap-0.5" aria-label={title}>
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {ranges.map((range) => {
        const active = range.display === current.display && range.type === current.type;
        return (
          <button
            key={`${range.type}-${range.display}`}
            type="button"
            aria-pressed={active}
            onClick={() => onPick(range)}
            className={cn('rounded px-2 py-1 text-left text-sm hover:bg-slate-100', active && 'bg-blue-50 font-medium text-blue-700')}
          >
            {range.display}
          </button>
        );
      })}
    </section>
  );
}

/** Spec §2 shared widget: relative, absolute and quick ranges, recent ranges and a calendar. */
export function TimeRangePicker({ value, onChange, className }: TimeRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [recent, setRecent] = useState<TimeRangeValue[]>(readRecentRanges);
  const pick = (next: TimeRangeValue) => {
    setRecent(rememberRange(next));
    setOpen(false);
    onChange(next);
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        aria-label={`Time range: ${value.display}`}
        className={cn(buttonBase, 'h-9 gap-2 border border-slate-300 bg-white px-3 text-sm text-slate-800 shadow-sm hover:bg-slate-50', className)}
      >
        <Clock className="size-4" aria-hidden="true" />
        {value.display}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          aria-label="Choose a time range"
          className="z-50 flex max-h-[80vh] gap-6 overflow-auto rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
        >
          <div className="flex w-64 flex-col gap-4">
            <AbsoluteForm initial={open ? safeResolve(value) : null} onApply={pick} />
            {recent.length > 0 ? <RangeList title="Recently used ranges" ranges={recent} current={value} onPick={pick} /> : null}
          </div>
          <RangeList title="Relative ranges" ranges={PAST_RANGE_OPTIONS} current={value} onPick={pick} />
          <RangeList title="Quick ranges" ranges={QUICK_RANGES} current={value} onPick={pick} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
