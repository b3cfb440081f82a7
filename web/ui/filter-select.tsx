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
  /** 'stacked': the label above, as a form field's (a form mixing both reads misaligned); default beside, as in filter bars. */
  layout?: 'inline' | 'stacked';
}

/** A labelled native select of a filter bar: keyboard, typeahead and screen readers come with the platform. */
export function FilterSelect({ label, value, options, groups = [], onChange, className, layout = 'inline' }: FilterSelectProps) {
  const id = useId();
  const render = (option: FilterOption) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  );
  return (
    <div className={layout === 'stacked' ? 'flex flex-col gap-1' : 'flex items-center gap-1.5'}>
      <label htmlFor={id} className={layout === 'stacked' ? 'text-sm font-medium text-slate-700' : 'text-xs font-medium text-slate-600'}>
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
