import { RESOURCE_SEARCH_DEBOUNCE_MS } from '@common/constants';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { FilterSelect } from '@web/ui/filter-select';
import { useTargetSearch, type Target, type TargetKind } from '../api/silences';

const KINDS: ReadonlyArray<{ value: TargetKind; label: string }> = [
  { value: 'check', label: 'Check' },
  { value: 'config', label: 'Config item' },
  { value: 'component', label: 'Component' },
];

/**
 * Picks the check, config item or component a silence is about: its kind, then a name typed and chosen
 * from up to 20 matches (spec §9: resource search waits 300 ms). Arrow keys move through the matches.
 */
export function ResourcePicker({ value, onChange, error }: { value: Target | null; onChange: (next: Target | null) => void; error?: string | undefined }) {
  const [kind, setKind] = useState<TargetKind>(value?.kind ?? 'check');
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, RESOURCE_SEARCH_DEBOUNCE_MS);
  const search = useTargetSearch(kind, debounced);
  const listId = useId();
  const inputId = useId();
  const matches = search.data ?? [];
  const [active, setActive] = useState(0);

  if (value) {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium text-slate-700">Resource</span>
        <div className="flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm">
          <span className="text-slate-500">{KINDS.find((k) => k.value === value.kind)?.label}</span>
          <span className="font-medium text-slate-900">{value.name}</span>
          {value.type ? <span className="text-xs text-slate-500">{value.type}</span> : null}
          <button type="button" aria-label={`Clear ${value.name}`} onClick={() => onChange(null)} className="ml-auto rounded p-0.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600">
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      </div>
    );
  }

  const choose = (target: Target | undefined) => {
    if (!target) return;
    onChange(target);
    setText('');
  };
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-end gap-2">
        <FilterSelect layout="stacked" label="Resource type" value={kind} options={KINDS} onChange={(next) => setKind(next === 'config' || next === 'component' ? next : 'check')} />
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
            Resource
          </label>
          <input
            id={inputId}
            role="combobox"
            aria-expanded={text.trim() !== ''}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={matches[active] ? `${listId}-${active}` : undefined}
            value={text}
            placeholder={`Search ${KINDS.find((k) => k.value === kind)?.label.toLowerCase()}s by name`}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
            }}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown') setActive((index) => Math.min(index + 1, Math.max(0, matches.length - 1)));
              else if (event.key === 'ArrowUp') setActive((index) => Math.max(0, index - 1));
              else if (event.key === 'Enter') choose(matches[active]);
              else return;
              event.preventDefault();
            }}
            className="h-8 rounded-md border border-slate-300 px-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-600"
          />
        </div>
      </div>
      {text.trim() !== '' ? (
        <ul id={listId} role="listbox" aria-label="Matching resources" className="max-h-56 overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-sm">
          {search.isFetching && matches.length === 0 ? <li className="px-3 py-1 text-slate-500">loading data...</li> : null}
          {!search.isFetching && debounced === text && matches.length === 0 ? <li className="px-3 py-1 text-slate-500">No resources found</li> : null}
          {matches.map((target, index) => (
            <li
              key={target.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(target)}
              className={index === active ? 'cursor-pointer bg-blue-50 px-3 py-1' : 'cursor-pointer px-3 py-1 hover:bg-slate-50'}
            >
              <span className="text-slate-900">{target.name}</span> {target.type ? <span className="text-xs text-slate-500">{target.type}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-500">Start typing to search</p>
      )}
      {search.error ? <p role="alert" className="text-xs text-red-600">{search.error.message}</p> : null}
      {error ? <p role="alert" className="text-xs text-red-600">{error}</p> : null}
    </div>
  );
}
