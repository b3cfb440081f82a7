import { OPTION_LIST_WINDOW_THRESHOLD } from '@common/constants';
import * as RadixPopover from '@radix-ui/react-popover';
import { ChevronDown } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { cn } from '@web/ui/primitives/cn';
import { TriStateFilter, type TriState } from '@web/ui/tri-state-filter';

export interface FilterGroup {
  /** The tag or label key; none for a plain list (health, status). */
  key?: string;
  values: readonly { value: string; label?: ReactNode }[];
}

export interface FilterPopoverProps {
  /** What is filtered: 'Health', 'Tags', … (the trigger reads '{label}: {summary}'). */
  label: string;
  /** The trigger's text after the label: 'All', the chosen values, or a count. */
  summary: string;
  groups: readonly FilterGroup[];
  stateOf: (key: string | undefined, value: string) => TriState;
  onChange: (key: string | undefined, value: string, state: TriState) => void;
  /** Shown when there are no values at all. */
  emptyText?: string;
}

/** Values (optionally under keys) each included or excluded (spec §4 tri-state), in a popover. */
export function FilterPopover({ label, summary, groups, stateOf, onChange, emptyText = 'No options found' }: FilterPopoverProps) {
  const [search, setSearch] = useState('');
  const total = groups.reduce((sum, group) => sum + group.values.length, 0);
  const needle = search.trim().toLowerCase();
  const shown = needle
    ? groups
        .map((group) => ({
          ...group,
          values: group.key?.toLowerCase().includes(needle) ? group.values : group.values.filter((item) => item.value.toLowerCase().includes(needle)),
        }))
        .filter((group) => group.values.length > 0)
    : groups;
  const active = summary !== 'All';
  return (
    <RadixPopover.Root onOpenChange={(open) => (open ? undefined : setSearch(''))}>
      <RadixPopover.Trigger
        aria-label={`${label}: ${summary}`}
        className={cn(
          'flex h-9 max-w-64 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-left text-sm text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
          active && 'border-blue-300 bg-blue-50/60',
        )}
      >
        <span className="min-w-0 truncate">
          <span className="font-medium">{label}</span>
          {/* Below 1280 px an unfiltered trigger reads just its name, so the catalog's filters stay on one row. */}
          <span className={cn('text-slate-500', !active && 'max-xl:hidden')}>: {summary}</span>
        </span>
        <ChevronDown className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content aria-label={`Filter by ${label.toLowerCase()}`} align="start" sideOffset={4} className="z-50 flex max-h-96 w-80 flex-col rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
          {total > OPTION_LIST_WINDOW_THRESHOLD ? (
            <input
              type="search"
              aria-label={`Search ${label.toLowerCase()}`}
              placeholder="Search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="mb-2 h-8 rounded-md border border-slate-300 px-2 text-sm"
            />
          ) : null}
          <div className="min-h-0 flex-1 overflow-auto">
            {shown.length === 0 ? <p className="px-2 py-1 text-sm text-slate-500">{total === 0 ? emptyText : 'No options found'}</p> : null}
            {shown.map((group) => (
              <section key={group.key ?? ''} aria-label={group.key} className="mb-1">
                {group.key ? <h3 className="px-2 pt-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.key}</h3> : null}
                <ul>
                  {group.values.map((item) => {
                    const name = group.key ? `${group.key}=${item.value}` : item.value;
                    return (
                      <li key={item.value} className="flex items-center justify-between gap-2 rounded px-2 py-0.5 hover:bg-slate-50">
                        <span className="min-w-0 truncate text-sm" title={item.value}>
                          {item.label ?? item.value}
                        </span>
                        <TriStateFilter label={name} value={stateOf(group.key, item.value)} onChange={(state) => onChange(group.key, item.value, state)} />
                      </li>
                    );
                  })}
                </ul>
              </section>
            ))}
          </div>
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
