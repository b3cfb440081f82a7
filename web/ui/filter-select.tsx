import { useId } from 'react';
import { cn } from './primitives/cn';

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterSelectProps {
  label: string;
  value: string;
  options: readonly FilterOption[];
  /** Options under headings, after `options` (the logs page's backends and components). */
  groups?: readonly { label: string; options: readonly FilterOption[] }[];
  onChange: (value: string) => void;
  className?: string;
}

/** A labelled native select of a filter bar: keyboard, typeahead and screen readers come with the platform. */
export function FilterSelect({ label, value, options, groups = [], onChange, className }: FilterSelectProps) {
  const id = useId();
  const render = (option: FilterOption) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  );
  return (
    <div className="flex items-center gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={cn('h-9 max-w-48 rounded-md border border-slate-300 bg-white px-2 text-sm', className)}>
        {options.map(render)}
        {groups
          .filter((group) => group.options.length > 0)
          .map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.options.map(render)}
            </optgroup>
          ))}
      </select>
    </div>
  );
}
