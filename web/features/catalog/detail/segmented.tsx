import { cn } from '@web/ui/primitives/cn';

export interface SegmentedProps<V extends string> {
  /** The group's accessible name. */
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}

/** A few mutually exclusive choices as pressed/unpressed buttons (YAML/JSON, a direction). */
export function Segmented<V extends string>({ label, value, options, onChange }: SegmentedProps<V>) {
  return (
    <div role="group" aria-label={label} className="inline-flex overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={cn(
            'h-8 border-l border-slate-300 px-3 text-sm font-medium text-slate-700 first:border-l-0 hover:bg-slate-50 focus-visible:relative focus-visible:outline-2 focus-visible:outline-blue-600',
            option.value === value && 'bg-blue-50 text-blue-700',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
