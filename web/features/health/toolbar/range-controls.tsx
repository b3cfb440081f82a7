import { RefreshCw } from 'lucide-react';
import { memo, useId } from 'react';
import { cn } from '@web/ui/primitives/cn';
import { IconButton } from '@web/ui/primitives/icon-button';
import { TimeRangePicker, type TimeRangeValue } from '@web/ui/time-range';
import { REFRESH_RATE_OPTIONS } from '../state/refresh';

interface RangeControlsProps {
  timeRange: TimeRangeValue;
  onTimeRangeChange: (value: TimeRangeValue) => void;
  refreshing: boolean;
  onRefresh: () => void;
  refreshRate: string;
  onRefreshRateChange: (rate: string) => void;
}

/** The time range (the shared picker), a refresh button that spins while loading, and the refresh rate. */
export const RangeControls = memo(function RangeControls({ timeRange, onTimeRangeChange, refreshing, onRefresh, refreshRate, onRefreshRateChange }: RangeControlsProps) {
  const rateId = useId();
  return (
    <div className="flex shrink-0 items-center gap-2">
      <TimeRangePicker value={timeRange} onChange={onTimeRangeChange} />
      <div className="flex items-center rounded-md border border-slate-300 bg-white shadow-sm">
        <IconButton label="Refresh" aria-busy={refreshing} onClick={onRefresh} icon={<RefreshCw className={cn('size-4', refreshing && 'animate-spin')} aria-hidden="true" />} />
        <label htmlFor={rateId} className="sr-only">
          Refresh rate
        </label>
        <select id={rateId} value={refreshRate} onChange={(event) => onRefreshRateChange(event.target.value)} className="h-8 border-l border-slate-200 bg-transparent px-1.5 text-sm text-slate-700">
          {REFRESH_RATE_OPTIONS.map((rate) => (
            <option key={rate} value={rate}>
              {rate}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
});
