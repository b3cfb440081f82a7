import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { NEW_ID } from '@web/features/settings/resources/new-id';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { Dialog } from '@web/ui/primitives/dialog';
import { DIRECT_GROUP, DIRECT_ITEMS, GITOPS_GROUP, GITOPS_ITEMS, integrationPath, matchItems, type AddItem } from './catalog';
import { GitopsWizard } from './gitops/gitops-wizard';

const ALL = 'All';

/**
 * Spec §2 "Add Integration modal": title 'Add Integration - {selected}' (the category, or the chosen
 * integration), a search box, categories, and the groups 'Add via GitOps' (the GitOps wizard) and 'Add
 * Directly' (the create forms; Log Backends hidden when the logs feature is disabled).
 */
export function AddIntegrationModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const flags = useFeatureFlags();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState(ALL);
  const [picked, setPicked] = useState<AddItem | null>(null);
  const direct = useMemo(() => DIRECT_ITEMS.filter((item) => !item.feature || flags.isEnabled(item.feature)), [flags]);
  const categories = useMemo(() => [ALL, ...new Set([...GITOPS_ITEMS, ...direct].map((item) => item.category))], [direct]);
  const inCategory = (items: readonly AddItem[]) => matchItems(items, search).filter((item) => category === ALL || item.category === category);
  const groups = [
    { title: GITOPS_GROUP, items: inCategory(GITOPS_ITEMS) },
    { title: DIRECT_GROUP, items: inCategory(direct) },
  ];
  const pick = (item: AddItem) => {
    if (item.kind === 'gitops') {
      setPicked(item);
      return;
    }
    if (item.type) {
      onOpenChange(false);
      void navigate(integrationPath(item.type, NEW_ID));
    }
  };
  const close = (next: boolean) => {
    // A closed modal opens again from the start: all categories, no search, nothing chosen.
    if (!next) {
      setPicked(null);
      setSearch('');
      setCategory(ALL);
    }
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={close} title={`Add Integration - ${picked ? picked.label : category}`} size={picked ? 'full' : 'large'}>
      {picked ? (
        <div className="flex flex-col gap-3">
          <div>
            <Button size="sm" variant="ghost" onClick={() => setPicked(null)}>
              <ArrowLeft className="size-4" aria-hidden="true" />
              All integrations
            </Button>
          </div>
          <GitopsWizard item={picked} />
        </div>
      ) : (
        <div className="flex min-h-96 gap-4">
          <nav aria-label="Categories" className="flex w-40 shrink-0 flex-col gap-0.5">
            {categories.map((name) => (
              <button
                key={name}
                type="button"
                aria-pressed={category === name}
                onClick={() => setCategory(name)}
                className={cn('rounded-md px-2 py-1.5 text-left text-sm hover:bg-slate-100', category === name ? 'bg-blue-50 font-medium text-blue-800' : 'text-slate-700')}
              >
                {name}
              </button>
            ))}
          </nav>
          <div className="flex min-w-0 flex-1 flex-col gap-4">
            <input
              type="search"
              aria-label="Search integrations"
              placeholder="Search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="h-9 w-full rounded-md border border-slate-300 px-3 text-sm"
            />
            {groups.every((group) => group.items.length === 0) ? <p className="text-sm text-slate-500">No options found</p> : null}
            {groups.map((group) =>
              group.items.length === 0 ? null : (
                <section key={group.title} aria-label={group.title} className="flex flex-col gap-2">
                  <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{group.title}</h3>
                  <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
                    {group.items.map((item) => {
                      const Icon = item.icon;
                      return (
                        <li key={item.id}>
                          <button
                            type="button"
                            onClick={() => pick(item)}
                            className="flex h-full w-full items-start gap-3 rounded-lg border border-slate-200 p-3 text-left hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
                          >
                            <Icon className="mt-0.5 size-5 shrink-0 text-slate-600" aria-hidden="true" />
                            <span className="flex min-w-0 flex-col">
                              <span className="text-sm font-medium text-slate-900">{item.label}</span>
                              <span className="text-xs text-slate-500">{item.description}</span>
                            </span>
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                </section>
              ),
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}
