import { useState } from 'react';
import { AbsoluteForm } from './absolute-form';
import { FUTURE_RANGE_OPTIONS } from './future';
import { QUICK_RANGES } from './mapped';
import { PickerPopover } from './picker-popover';
import { RangeList } from './range-list';
import { readRecentRanges, rememberRange } from './recent';
import { PAST_RANGE_OPTIONS } from './relative';
import { resolveFutureTimeRange, resolveTimeRange } from './resolve';
import type { FutureTimeRangeValue, TimeRangeValue } from './types';

/** The default picker: a window of the past (histories, filters). */
export interface PastTimeRangePickerProps {
  mode?: 'past';
  value: TimeRangeValue;
  onChange: (value: TimeRangeValue) => void;
  className?: string;
}

/** `mode="future"`: choosing an end time ahead of now, e.g. a silence's 'until'. */
export interface FutureTimeRangePickerProps {
  mode: 'future';
  value: FutureTimeRangeValue;
  onChange: (value: FutureTimeRangeValue) => void;
  className?: string;
}

export type TimeRangePickerProps = PastTimeRangePickerProps | FutureTimeRangePickerProps;

function safeResolve(value: TimeRangeValue) {
  try {
    return resolveTimeRange(value);
  } catch (error) {
    console.warn(error);
    return null;
  }
}

/** The absolute form starts from the current choice; an endless range has no To to fill in. */
function futureInitial(value: FutureTimeRangeValue) {
  const resolved = resolveFutureTimeRange(value);
  return resolved?.to ? { from: resolved.from, to: resolved.to } : null;
}

function PastPicker({ value, onChange, className }: PastTimeRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [recent, setRecent] = useState<TimeRangeValue[]>(readRecentRanges);
  const pick = (next: TimeRangeValue) => {
    setRecent(rememberRange(next));
    setOpen(false);
    onChange(next);
  };
  return (
    <PickerPopover display={value.display} open={open} onOpenChange={setOpen} className={className}>
      <div className="flex w-64 flex-col gap-4">
        <AbsoluteForm initial={open ? safeResolve(value) : null} onApply={pick} />
        {recent.length > 0 ? <RangeList title="Recently used ranges" ranges={recent} current={value} onPick={pick} /> : null}
      </div>
      <RangeList title="Relative ranges" ranges={PAST_RANGE_OPTIONS} current={value} onPick={pick} />
      <RangeList title="Quick ranges" ranges={QUICK_RANGES} current={value} onPick={pick} />
    </PickerPopover>
  );
}

/**
 * Forward ranges and 'Indefinitely' (spec §9), plus fixed instants. Quick ranges all lie in the past,
 * and the recent list is left out because its storage holds past ranges: a remembered 'next 1 hour'
 * would come back as 'last 1 hour'.
 */
function FuturePicker({ value, onChange, className }: FutureTimeRangePickerProps) {
  const [open, setOpen] = useState(false);
  const pick = (next: FutureTimeRangeValue) => {
    setOpen(false);
    onChange(next);
  };
  return (
    <PickerPopover display={value.display} open={open} onOpenChange={setOpen} className={className}>
      <div className="flex w-64 flex-col gap-4">
        <AbsoluteForm initial={open ? futureInitial(value) : null} onApply={pick} />
      </div>
      <RangeList title="Relative ranges" ranges={FUTURE_RANGE_OPTIONS} current={value} onPick={pick} />
    </PickerPopover>
  );
}

/** Spec §2 shared widget: relative, absolute and quick ranges, recent ranges and a calendar. */
export function TimeRangePicker(props: TimeRangePickerProps) {
  return props.mode === 'future' ? <FuturePicker {...props} /> : <PastPicker {...props} />;
}
