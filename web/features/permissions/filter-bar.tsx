import { SEARCH_DEBOUNCE_MS } from '@common/constants';
import { PERMISSION_ACTIONS } from '@common/rbac';
import { Search } from 'lucide-react';
import { useEffect, useEffectEvent, useState } from 'react';
import { EFFECTS, type FilterPatch, type PermissionFilters } from './filters';
import { SUBJECT_KINDS } from './form';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { FilterSelect } from '@web/ui/filter-select';

const ALL = { value: '', label: 'All' };

/** The search box writes the URL once typing pauses (spec §9: 400 ms), and follows the URL back. */
function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  const settled = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const write = useEffectEvent((next: string) => {
    if (next !== value) onChange(next);
  });
  useEffect(() => write(settled), [settled]);
  const follow = useEffectEvent((next: string) => {
    if (next !== settled) setText(next);
  });
  // The back button (or a shared link) changed the URL: the box shows what is searched.
  useEffect(() => follow(value), [value]);
  return (
    <div className="relative">
      <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-slate-400" aria-hidden="true" />
      <input
        type="search"
        aria-label="Search permissions"
        placeholder="Search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        className="h-9 w-56 rounded-md border border-slate-300 bg-white pl-8 pr-2 text-sm"
      />
    </div>
  );
}

export interface PermissionFilterBarProps {
  filters: PermissionFilters;
  onChange: (patch: FilterPatch) => void;
}

/** Subject kind, effect and action filters and a search, all held in the URL. */
export function PermissionFilterBar({ filters, onChange }: PermissionFilterBarProps) {
  return (
    <div role="search" aria-label="Permission filters" className="flex flex-wrap items-center gap-3">
      <SearchBox value={filters.search} onChange={(q) => onChange({ q })} />
      <FilterSelect className="max-w-56" label="Subject" value={filters.subjectType} options={[ALL, ...SUBJECT_KINDS]} onChange={(subjectType) => onChange({ subjectType })} />
      <FilterSelect
        className="max-w-56"
        label="Effect"
        value={filters.effect}
        options={[ALL, ...EFFECTS.map((value) => ({ value, label: value === 'deny' ? 'Deny' : 'Allow' }))]}
        onChange={(effect) => onChange({ effect })}
      />
      <FilterSelect className="max-w-56" label="Action" value={filters.action} options={[ALL, ...PERMISSION_ACTIONS.map((value) => ({ value, label: value }))]} onChange={(action) => onChange({ action })} />
    </div>
  );
}
