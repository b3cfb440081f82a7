import { RESOURCE_SEARCH_DEBOUNCE_MS } from '@common/constants';
import { useId, useRef, useState } from 'react';
import { usePeopleSearch } from '@web/lib/people';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { useComboboxKeys } from '@web/ui/use-combobox-keys';
import { usePerson } from './queries';
import type { PersonOption } from './schema';

export interface PersonPickerProps {
  label: string;
  /** The chosen person's id, or '' for none. */
  value: string;
  onChange: (id: string) => void;
  /** Marks the field touched (spec §5: messages after touch). */
  onBlur?: () => void;
  error?: string;
  /** The person already chosen, when the caller knows them (an edited row's summary). */
  known?: PersonOption | null;
}

const optionId = (listId: string, index: number) => `${listId}-${index}`;

/**
 * A search-as-you-type person picker (a combobox): the search waits 300 ms (spec §9), arrows move through
 * the matches, Enter picks one, Escape closes the list. Spec §8 texts: 'Start typing to search',
 * 'No options found', 'loading data...'.
 */
export function PersonPicker({ label, value, onChange, onBlur, error, known }: PersonPickerProps) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<PersonOption | null>(known ?? null);
  // Spec §9: the search waits 300 ms after the last keystroke; older answers are not shown meanwhile.
  const term = useDebouncedValue(text.trim(), RESOURCE_SEARCH_DEBOUNCE_MS);
  const results = usePeopleSearch(term);
  const settled = term === text.trim();
  const lookup = usePerson(value !== '' && chosen?.id !== value ? value : '');
  const people = settled ? (results.data ?? []) : [];
  const current = value === '' ? null : chosen?.id === value ? chosen : (lookup.data ?? null);

  const pick = (person: PersonOption) => {
    setChosen(person);
    setText('');
    setOpen(false);
    onChange(person.id);
  };

  const { open, setOpen, active, setActive, onKeyDown } = useComboboxKeys(people, pick);

  if (value !== '') {
    return (
      <div className="flex flex-col gap-1">
        <span id={`${id}-label`} className="text-sm font-medium text-slate-700">
          {label}
        </span>
        <div role="group" aria-labelledby={`${id}-label`} className="flex items-center justify-between gap-2 rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 text-sm">
          <span className="min-w-0 truncate">
            <span className="font-medium text-slate-900">{current?.name ?? value}</span>
            {current?.email ? <span className="ml-2 text-slate-500">{current.email}</span> : null}
          </span>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              onChange('');
              // The search box replaces this row; focus follows so the keyboard stays in place.
              requestAnimationFrame(() => input.current?.focus());
            }}
          >
            Change
          </Button>
        </div>
      </div>
    );
  }

  const status = text.trim() === '' ? 'Start typing to search' : !settled || results.isFetching ? 'loading data...' : results.error ? results.error.message : people.length === 0 ? 'No options found' : undefined;
  return (
    <div className="relative flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && people[active] ? optionId(listId, active) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        autoComplete="off"
        placeholder="Search by name or email"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          onBlur?.();
        }}
        onKeyDown={onKeyDown}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm aria-[invalid=true]:border-red-500"
      />
      {open ? (
        <ul id={listId} role="listbox" aria-label={`${label} matches`} className="absolute top-full z-10 mt-1 max-h-60 w-full overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
          {status ? (
            <li role="presentation" className="px-2 py-1.5 text-sm text-slate-500">
              {status}
            </li>
          ) : (
            people.map((person, index) => (
              <li
                key={person.id}
                id={optionId(listId, index)}
                role="option"
                aria-selected={index === active}
                // Keeps the focus in the input, so its blur does not close the list before the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(person)}
                className={cn('flex cursor-pointer flex-col rounded-md px-2 py-1.5 text-sm', index === active && 'bg-slate-100')}
              >
                <span className="text-slate-900">{person.name}</span>
                {person.email ? <span className="text-xs text-slate-500">{person.email}</span> : null}
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
