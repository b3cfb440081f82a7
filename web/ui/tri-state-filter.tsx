import { Minus, Plus } from 'lucide-react';
import { cn } from './primitives/cn';

/** Spec §4: 0 none, 1 include, -1 exclude. */
export type TriState = 0 | 1 | -1;

/** The next state after clicking `clicked`: clicking the active state resets to 0 (spec §4). */
export function nextTriState(current: TriState, clicked: 1 | -1): TriState {
  return current === clicked ? 0 : clicked;
}

export interface TriStateFilterProps {
  /** What is filtered, e.g. a label 'env=prod'; it names both buttons for screen readers. */
  label: string;
  value: TriState;
  onChange: (value: TriState) => void;
  className?: string;
}

/** An include / exclude toggle pair for one filter value. */
export function TriStateFilter({ label, value, onChange, className }: TriStateFilterProps) {
  const button = (state: 1 | -1) => {
    const active = value === state;
    const Icon = state === 1 ? Plus : Minus;
    return (
      <button
        type="button"
        aria-label={`${state === 1 ? 'Include' : 'Exclude'} ${label}`}
        aria-pressed={active}
        onClick={() => onChange(nextTriState(value, state))}
        className={cn(
          'inline-flex size-6 items-center justify-center rounded text-slate-500 hover:bg-slate-100',
          active && state === 1 && 'bg-green-100 text-green-700 hover:bg-green-200',
          active && state === -1 && 'bg-red-100 text-red-700 hover:bg-red-200',
        )}
      >
        <Icon className="size-3.5" aria-hidden="true" />
      </button>
    );
  };
  return (
    <span className={cn('inline-flex items-center gap-0.5', className)} role="group" aria-label={label}>
      {button(1)}
      {button(-1)}
    </span>
  );
}
