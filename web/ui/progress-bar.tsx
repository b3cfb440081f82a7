import { PROGRESS } from '@common/constants';
import { cn } from './primitives/cn';

export type ProgressTone = 'none' | 'green' | 'orange' | 'red';

/** Spec §4: green up to 75, orange above 75, red above 90, no colour below 1. */
export function progressTone(value: number): ProgressTone {
  if (!(value >= PROGRESS.hiddenBelow)) return 'none';
  if (value > PROGRESS.dangerAbove) return 'red';
  if (value > PROGRESS.warnAbove) return 'orange';
  return 'green';
}

/** Spec §5: the drawn width is clamped between 5 and 100 so a small value stays visible. */
export function progressWidth(value: number): number {
  if (!Number.isFinite(value)) return PROGRESS.displayMin;
  return Math.min(PROGRESS.displayMax, Math.max(PROGRESS.displayMin, value));
}

const fills: Record<ProgressTone, string> = {
  none: 'bg-transparent',
  green: 'bg-green-500',
  orange: 'bg-orange-500',
  red: 'bg-red-500',
};

export interface ProgressBarProps {
  /** Percentage 0..100. */
  value: number;
  label?: string;
  className?: string;
}

export function ProgressBar({ value, label, className }: ProgressBarProps) {
  const tone = progressTone(value);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Number.isFinite(value) ? Math.round(value) : 0}
      data-tone={tone}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className={cn('h-full rounded-full', fills[tone])} style={{ width: `${progressWidth(value)}%` }} />
    </div>
  );
}
