import * as Radio from '@radix-ui/react-radio-group';
import { useId, type ReactNode } from 'react';
import { cn } from './cn';

export interface RadioOption<V extends string> {
  value: V;
  label: ReactNode;
  /** Muted text about the option: an example of its format, or a sentence saying what it does (see `hints`). */
  hint?: ReactNode;
}

export interface RadioGroupProps<V extends string> {
  label: string;
  value: V;
  options: readonly RadioOption<V>[];
  onValueChange: (value: V) => void;
  className?: string;
  /**
   * How option hints read: 'example' (default), a sample beside the label in monospace (a date format, an
   * address); 'description', a sentence on its own line under the label, in the text font, that
   * describes the option to screen readers too.
   */
  hints?: 'example' | 'description';
}

/** Arrow keys move between options (Radix); the group is named by its visible label. */
export function RadioGroup<V extends string>({ label, value, options, onValueChange, className, hints = 'example' }: RadioGroupProps<V>) {
  const labelId = useId();
  const idPrefix = useId();
  return (
    <div className={className}>
      <div id={labelId} className="mb-1.5 text-sm font-medium text-slate-700">
        {label}
      </div>
      <Radio.Root
        aria-labelledby={labelId}
        value={value}
        onValueChange={(next) => {
          const option = options.find((candidate) => candidate.value === next);
          if (option) onValueChange(option.value);
        }}
        className="flex flex-col gap-1"
      >
        {options.map((option) => {
          const id = `${idPrefix}-${option.value}`;
          const described = hints === 'description' && option.hint;
          return (
            <div key={option.value} className={cn('flex gap-2', described ? 'items-start' : 'items-center')}>
              <Radio.Item
                id={id}
                value={option.value}
                aria-describedby={described ? `${id}-hint` : undefined}
                className={cn(
                  'flex size-4 shrink-0 items-center justify-center rounded-full border border-slate-400 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 data-[state=checked]:border-blue-600',
                  described && 'mt-0.5',
                )}
              >
                <Radio.Indicator className="block size-2 rounded-full bg-blue-600" />
              </Radio.Item>
              {described ? (
                <div className="flex min-w-0 flex-1 flex-col">
                  <label htmlFor={id} className="cursor-pointer text-sm text-slate-700">
                    {option.label}
                  </label>
                  <span id={`${id}-hint`} className="text-xs text-slate-500">
                    {option.hint}
                  </span>
                </div>
              ) : (
                <label htmlFor={id} className="flex min-w-0 flex-1 cursor-pointer items-baseline justify-between gap-3 text-sm text-slate-700">
                  <span>{option.label}</span>
                  {option.hint ? <span className="truncate font-mono text-xs text-slate-500">{option.hint}</span> : null}
                </label>
              )}
            </div>
          );
        })}
      </Radio.Root>
    </div>
  );
}
