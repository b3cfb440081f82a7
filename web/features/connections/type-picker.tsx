import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { PICKABLE_CONNECTION_TYPES, type ConnectionCategory, type ConnectionTypeDef } from '@common/connections';
import { SearchBox } from '@web/ui/search-box';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { TypeIcon } from './columns';
import { newConnectionPath } from './paths';

const CATEGORY_ORDER: readonly ConnectionCategory[] = ['Databases', 'Notifications', 'Cloud', 'AI', 'Source control', 'Other'];

/** The types the picker offers under their categories, filtered by label or type name. */
export function pickableGroups(filter: string): Array<{ category: ConnectionCategory; types: ConnectionTypeDef[] }> {
  const term = filter.trim().toLowerCase();
  const matches = PICKABLE_CONNECTION_TYPES.filter((def) => term === '' || def.label.toLowerCase().includes(term) || def.type.includes(term) || def.category.toLowerCase().includes(term));
  return CATEGORY_ORDER.map((category) => ({ category, types: matches.filter((def) => def.category === category) })).filter((group) => group.types.length > 0);
}

/**
 * Step one of "Add connection": every pickable type (spec §3: jmeter is hidden) as a link to its form,
 * so the keyboard (Tab, Enter) and the back button work as anywhere else.
 */
export function TypePicker() {
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => pickableGroups(filter), [filter]);
  return (
    <div className="flex flex-col gap-4">
      <div className="max-w-sm">
        <SearchBox label="Filter connection types" placeholder="Filter types" value={filter} onCommit={setFilter} />
      </div>
      {groups.length === 0 ? <EmptyState title="No connection type matches" /> : null}
      {groups.map((group) => (
        <section key={group.category} aria-label={group.category} className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold text-slate-700">{group.category}</h2>
          <ul className="grid grid-cols-[repeat(auto-fill,minmax(10rem,1fr))] gap-2">
            {group.types.map((def) => (
              <li key={def.type}>
                <Link
                  to={newConnectionPath(def.type)}
                  className="flex h-full items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2.5 text-sm font-medium text-slate-800 shadow-sm hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
                >
                  <TypeIcon type={def.type} className="size-5 shrink-0 text-slate-600" />
                  {def.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
