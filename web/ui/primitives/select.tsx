import * as RadixSelect from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { cn } from './cn';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string> {
  label: string;
  /** Visually hide the label (it stays the accessible name). */
  hideLabel?: boolean;
  value: V;
  options: readonly SelectOption<V>[];
  onValueChange: (value: V) => void;
  className?: string;
  /** Shown while no option is chosen. */
  placeholder?: string;
}

/** Keyboard and typeahead from Radix; long lists scroll inside a bounded popover. */
export function Select<V extends string>({ label, hideLabel, value, options, onValueChange, className, placeholder }: SelectProps<V>) {
  const labelId = useId();
  return (
    <div className={className}>
      <div id={labelId} className={cn('mb-1.5 text-sm font-medium text-slate-700', hideLabel && 'sr-only')}>
        {label}
      </div>
      <RadixSelect.Root
        value={value}
        onValueChange={(next) => {
          const option = options.find((candidate) => candidate.value === next);
          if (option) onValueChange(option.value);
        }}
      >
        <RadixSelect.Trigger
          aria-labelledby={labelId}
          className="flex h-9 w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 text-left text-sm text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <span className="truncate">
            <RadixSelect.Value placeholder={placeholder} />
          </span>
          <RadixSelect.Icon>
            <ChevronDown className="size-4 text-slate-500" aria-hidden="true" />
          </RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content position="popper" sideOffset={4} className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg">
            <RadixSelect.Viewport className="p-1">
              {options.map((option) => (
                <RadixSelect.Item
                  key={option.value}
                  value={option.value}
                  className="relative flex cursor-pointer select-none items-center rounded-md py-1.5 pl-7 pr-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100"
                >
                  <RadixSelect.ItemIndicator className="absolute left-2 inline-flex">
                    <Check className="size-3.5 text-blue-600" aria-hidden="true" />
                  </RadixSelect.ItemIndicator>
                  <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
    </div>
  );
}
