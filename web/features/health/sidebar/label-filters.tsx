import { OPTION_LIST_WINDOW_THRESHOLD } from '@common/constants';
import * as RadixPopover from '@radix-ui/react-popover';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@web/ui/primitives/cn';
import { TriStateFilter, type TriState } from '@web/ui/tri-state-filter';
import { labelState, multiSelectSummary, type LabelFilterEntry, type LabelOption } from '../state/labels';

interface LabelFiltersProps {
  options: readonly LabelOption[];
  entries: readonly LabelFilterEntry[];
  onChange: (key: string, value: string, state: TriState) => void;
}

/** A boolean label (spec §5): one include/exclude toggle on `key=true`. */
function BooleanLabel({ option, entries, onChange }: { option: LabelOption } & Omit<LabelFiltersProps, 'options'>) {
  return (
    <li className="flex items-center justify-between gap-2 py-0.5">
      <span className="truncate text-sm text-slate-700" title={option.key}>
        {option.key}
      </span>
      <TriStateFilter label={`${option.key}=true`} value={labelState(entries, option.key, 'true')} onChange={(state) => onChange(option.key, 'true', state)} />
    </li>
  );
}

/** Any other label (spec §5): a multi-select of its values, each included or excluded. */
function MultiSelectLabel({ option, entries, onChange }: { option: LabelOption } & Omit<LabelFiltersProps, 'options'>) {
  const [search, setSearch] = useState('');
  const searchable = option.values.length > OPTION_LIST_WINDOW_THRESHOLD;
  const needle = search.trim().toLowerCase();
  const values = needle ? option.values.filter((value) => value.toLowerCase().includes(needle)) : option.values;
  const summary = multiSelectSummary(entries, option.key);
  const active = summary !== 'All';
  return (
    <li className="py-0.5">
      <RadixPopover.Root onOpenChange={(open) => (open ? undefined : setSearch(''))}>
        <RadixPopover.Trigger
          aria-label={`Label ${option.key}: ${summary}`}
          className={cn(
            'flex h-8 w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-2 text-left text-sm text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
            active && 'border-blue-300 bg-blue-50/50',
          )}
        >
          <span className="min-w-0 truncate">
            <span className="font-medium">{option.key}</span>
            <span className="text-slate-500">: {summary}</span>
          </span>
          <ChevronDown className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
        </RadixPopover.Trigger>
        <RadixPopover.Portal>
          <RadixPopover.Content aria-label={`Filter by label ${option.key}`} align="start" sideOffset={4} className="z-50 flex max-h-80 w-72 flex-col rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
            {searchable ? (
              <input
                type="search"
                aria-label={`Search values of ${option.key}`}
                placeholder="Search values"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                className="mb-2 h-8 rounded-md border border-slate-300 px-2 text-sm"
              />
            ) : null}
            <ul className="min-h-0 flex-1 overflow-auto">
              {values.length === 0 ? <li className="px-2 py-1 text-sm text-slate-500">No options found</li> : null}
              {values.map((value) => (
                <li key={value} className="flex items-center justify-between gap-2 rounded px-2 py-0.5 hover:bg-slate-50">
                  <span className="truncate text-sm" title={value}>
                    {value}
                  </span>
                  <TriStateFilter label={`${option.key}=${value}`} value={labelState(entries, option.key, value)} onChange={(state) => onChange(option.key, value, state)} />
                </li>
              ))}
            </ul>
          </RadixPopover.Content>
        </RadixPopover.Portal>
      </RadixPopover.Root>
    </li>
  );
}

/** Spec §2 sidebar label filters, built from the labels of the checks. */
export function LabelFilters({ options, entries, onChange }: LabelFiltersProps) {
  if (options.length === 0) return <p className="text-sm text-slate-500">The checks have no labels.</p>;
  const booleans = options.filter((option) => option.boolean);
  const others = options.filter((option) => !option.boolean);
  return (
    <div className="flex flex-col gap-3">
      {others.length > 0 ? (
        <ul aria-label="Labels" className="flex flex-col gap-1">
          {others.map((option) => (
            <MultiSelectLabel key={option.key} option={option} entries={entries} onChange={onChange} />
          ))}
        </ul>
      ) : null}
      {booleans.length > 0 ? (
        <ul aria-label="Boolean labels" className="flex flex-col">
          {booleans.map((option) => (
            <BooleanLabel key={option.key} option={option} entries={entries} onChange={onChange} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
