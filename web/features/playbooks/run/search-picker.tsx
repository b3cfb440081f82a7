import { RESOURCE_SEARCH_DEBOUNCE_MS } from '@common/constants';
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { z } from 'zod';
import { db } from '@web/lib/db';
import { usePeopleSearch } from '@web/lib/people';
import { ilikeAny } from '@web/lib/search';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { fail } from '../api/keys';
import { useResourceSearch } from '../api/runs';
import type { TargetKind } from '../model/params';

export interface PickedOption {
  id: string;
  name: string;
  detail?: string | undefined;
}

interface ComboboxProps {
  label: string;
  /** The chosen option, shown with a clear button instead of the search box. */
  value: PickedOption | null;
  onChange: (next: PickedOption | null) => void;
  onBlur?: (() => void) | undefined;
  text: string;
  setText: (text: string) => void;
  options: readonly PickedOption[];
  loading: boolean;
  settled: boolean;
  error?: string | undefined;
  invalid?: boolean | undefined;
  placeholder?: string | undefined;
  required?: boolean | undefined;
}

/**
 * A name typed and chosen from the matches (spec §8: 'Start typing to search', 'No options found');
 * arrow keys move through them and Enter picks.
 */
function Combobox({ label, value, onChange, onBlur, text, setText, options, loading, settled, error, invalid, placeholder, required }: ComboboxProps) {
  const listId = useId();
  const inputId = useId();
  const [active, setActive] = useState(0);
  if (value) {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium text-slate-700">{label}</span>
        <div className="flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm">
          <span className="font-medium text-slate-900">{value.name}</span>
          {value.detail ? <span className="text-xs text-slate-500">{value.detail}</span> : null}
          <button type="button" aria-label={`Clear ${label}`} onClick={() => onChange(null)} className="ml-auto rounded p-0.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600">
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      </div>
    );
  }
  const choose = (option: PickedOption | undefined) => {
    if (!option) return;
    onChange(option);
    setText('');
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
        {label}
        {required ? <span aria-hidden="true" className="text-red-600">*</span> : null}
      </label>
      <input
        id={inputId}
        role="combobox"
        aria-expanded={text.trim() !== ''}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-invalid={invalid ? true : undefined}
        aria-activedescendant={options[active] ? `${listId}-${active}` : undefined}
        value={text}
        placeholder={placeholder}
        onBlur={onBlur}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActive((index) => Math.min(index + 1, Math.max(0, options.length - 1)));
          else if (event.key === 'ArrowUp') setActive((index) => Math.max(0, index - 1));
          else if (event.key === 'Enter') choose(options[active]);
          else return;
          event.preventDefault();
        }}
        className="h-8 rounded-md border border-slate-300 px-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-600 aria-[invalid=true]:border-red-500"
      />
      {text.trim() !== '' ? (
        <ul id={listId} role="listbox" aria-label={`${label} matches`} className="max-h-48 overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-sm">
          {loading && options.length === 0 ? <li className="px-3 py-1 text-slate-500">loading data...</li> : null}
          {settled && options.length === 0 ? <li className="px-3 py-1 text-slate-500">No options found</li> : null}
          {options.map((option, index) => (
            <li
              key={option.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
              className={index === active ? 'cursor-pointer bg-blue-50 px-3 py-1' : 'cursor-pointer px-3 py-1 hover:bg-slate-50'}
            >
              <span className="text-slate-900">{option.name}</span> {option.detail ? <span className="text-xs text-slate-500">{option.detail}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-500">Start typing to search</p>
      )}
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export type PickerSource = { kind: TargetKind; types?: readonly string[] | undefined } | { kind: 'people' } | { kind: 'team' };

type PickerProps = Omit<ComboboxProps, 'text' | 'setText' | 'options' | 'loading' | 'settled'> & { source: PickerSource };

const teamRow = z.object({ id: z.string(), name: z.string() });

function useTeamSearch(text: string) {
  return useQuery({
    queryKey: ['playbooks', 'team-search', text],
    enabled: text.trim() !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('teams').select('id,name').or(ilikeAny(['name'], text.trim())).is('deleted_at', null).order('name').limit(20).abortSignal(signal);
      fail(error);
      return z.array(teamRow).parse(data ?? []);
    },
  });
}

function ResourcePickerInner({ source, ...props }: PickerProps & { source: { kind: TargetKind; types?: readonly string[] | undefined } }) {
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, RESOURCE_SEARCH_DEBOUNCE_MS);
  const search = useResourceSearch(source.kind, source.types ?? [], debounced);
  const options = (search.data ?? []).map((row) => ({ id: row.id, name: row.name, detail: row.type }));
  return <Combobox {...props} text={text} setText={setText} options={options} loading={search.isFetching} settled={!search.isFetching && debounced === text} placeholder={props.placeholder ?? 'Search by name'} />;
}

function PeoplePicker(props: PickerProps) {
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, RESOURCE_SEARCH_DEBOUNCE_MS);
  const search = usePeopleSearch(debounced);
  const options = (search.data ?? []).map((person) => ({ id: person.id, name: person.name || person.email || person.id, detail: person.email ?? undefined }));
  return <Combobox {...props} text={text} setText={setText} options={options} loading={search.isFetching} settled={!search.isFetching && debounced === text} placeholder="Search people by name or email" />;
}

function TeamPicker(props: PickerProps) {
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, RESOURCE_SEARCH_DEBOUNCE_MS);
  const search = useTeamSearch(debounced);
  const options = (search.data ?? []).map((team) => ({ id: team.id, name: team.name }));
  return <Combobox {...props} text={text} setText={setText} options={options} loading={search.isFetching} settled={!search.isFetching && debounced === text} placeholder="Search teams by name" />;
}

/** Picks a config item, component, check, person or team by name; its value is the id. */
export function SearchPicker(props: PickerProps) {
  const { source } = props;
  if (source.kind === 'people') return <PeoplePicker {...props} />;
  if (source.kind === 'team') return <TeamPicker {...props} />;
  return <ResourcePickerInner {...props} source={source} />;
}
