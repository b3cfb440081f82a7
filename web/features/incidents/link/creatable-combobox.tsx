import { useId, useRef, useState } from 'react';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { useComboboxKeys } from '@web/ui/use-combobox-keys';

export interface ComboOption {
  id: string;
  label: string;
  detail?: string;
}

/** What the field holds: an existing option, a new value typed by the user, or nothing yet. */
export type ComboValue = { kind: 'existing'; option: ComboOption } | { kind: 'new'; text: string } | { kind: 'none' };

export interface CreatableComboboxProps {
  label: string;
  value: ComboValue;
  onChange: (value: ComboValue) => void;
  /** Called with the typed text; the caller searches (debounced) and passes the matches back. */
  onSearch: (text: string) => void;
  options: readonly ComboOption[];
  loading?: boolean;
  /** What 'create' is called in the list ('Create incident'). */
  createLabel: string;
  placeholder?: string;
  error?: string | undefined;
  /** Marks the label required. */
  markRequired?: boolean;
}

const optionId = (listId: string, index: number) => `${listId}-${index}`;

/**
 * Choose one of the matches or create a new value from the typed text (a combobox: arrows move, Enter
 * picks, Escape closes). Spec §8 texts: 'Start typing to search', 'No options found', 'loading data...'.
 */
export function CreatableCombobox({ label, value, onChange, onSearch, options, loading, createLabel, placeholder, error, markRequired }: CreatableComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const typed = text.trim();
  // The matches, then "Create '<text>'" when something is typed.
  const entries: Array<{ kind: 'option'; option: ComboOption } | { kind: 'create' }> = [...options.map((option) => ({ kind: 'option' as const, option })), ...(typed ? [{ kind: 'create' as const }] : [])];

  const choose = (entry: (typeof entries)[number]) => {
    onChange(entry.kind === 'create' ? { kind: 'new', text: typed } : { kind: 'existing', option: entry.option });
    setText('');
    setOpen(false);
  };

  const { open, setOpen, active, setActive, onKeyDown } = useComboboxKeys(entries, choose);

  const labelRow = (
    <div className="flex items-baseline gap-0.5">
      <label htmlFor={id} id={`${id}-label`} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {markRequired ? (
        <span aria-hidden="true" className="text-sm text-red-600">
          *
        </span>
      ) : null}
    </div>
  );

  if (value.kind !== 'none') {
    return (
      <div className="flex flex-col gap-1">
        {labelRow}
        <div role="group" aria-labelledby={`${id}-label`} className="flex items-center justify-between gap-2 rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 text-sm">
          <span className="min-w-0 truncate">
            {value.kind === 'new' ? (
              <>
                <span className="mr-2 rounded bg-blue-100 px-1.5 py-0.5 text-xs font-medium text-blue-800">New</span>
                <span className="font-medium text-slate-900">{value.text}</span>
              </>
            ) : (
              <>
                <span className="font-medium text-slate-900">{value.option.label}</span>
                {value.option.detail ? <span className="ml-2 text-slate-500">{value.option.detail}</span> : null}
              </>
            )}
          </span>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              onChange({ kind: 'none' });
              requestAnimationFrame(() => input.current?.focus());
            }}
          >
            Change
          </Button>
        </div>
        {error ? (
          <p role="alert" className="text-xs text-red-600">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  const status = loading ? 'loading data...' : entries.length === 0 ? (typed ? 'No options found' : 'Start typing to search') : undefined;
  return (
    <div className="relative flex flex-col gap-1">
      {labelRow}
      <input
        ref={input}
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && entries[active] ? optionId(listId, active) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        autoComplete="off"
        placeholder={placeholder}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onSearch(event.target.value.trim());
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => {
          onSearch(typed);
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm aria-[invalid=true]:border-red-500"
      />
      {open ? (
        <ul id={listId} role="listbox" aria-label={`${label} options`} className="absolute top-full z-10 mt-1 max-h-60 w-full overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
          {status && entries.length === 0 ? (
            <li role="presentation" className="px-2 py-1.5 text-sm text-slate-500">
              {status}
            </li>
          ) : (
            entries.map((entry, index) => (
              <li
                key={entry.kind === 'create' ? '__create' : entry.option.id}
                id={optionId(listId, index)}
                role="option"
                aria-selected={index === active}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(entry)}
                className={cn('flex cursor-pointer flex-col rounded-md px-2 py-1.5 text-sm', index === active && 'bg-slate-100')}
              >
                {entry.kind === 'create' ? (
                  <span className="text-blue-700">
                    {createLabel}: “{typed}”
                  </span>
                ) : (
                  <>
                    <span className="text-slate-900">{entry.option.label}</span>
                    {entry.option.detail ? <span className="text-xs text-slate-500">{entry.option.detail}</span> : null}
                  </>
                )}
              </li>
            ))
          )}
        </ul>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
