import { AppWindow, BookOpen } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { HealthBar } from '@web/features/catalog/list/health-bar';
import { Page } from '@web/app/layout/page';
import { docsUrl } from '@web/lib/docs';
import { patchSearchParams, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { SearchBox } from '@web/ui/search-box';
import { useApplications, type ApplicationCard } from './api';
import { applicationPath } from './paths';

/** Cards whose name, namespace, type or description holds every word of the search. */
export function filterApplications(cards: readonly ApplicationCard[], search: string): ApplicationCard[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return cards.filter((card) => {
    const text = `${card.namespace}/${card.name} ${card.type} ${card.description ?? ''}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

function Count({ label, value, tone = 'text-slate-900' }: { label: string; value: number; tone?: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${tone}`}>{value}</dd>
    </div>
  );
}

function Card({ card }: { card: ApplicationCard }) {
  return (
    <li aria-label={card.name} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start gap-3">
        <AppWindow className="mt-0.5 size-6 shrink-0 text-slate-500" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <Link to={applicationPath(card.namespace, card.name)} className="block truncate font-semibold text-slate-900 hover:text-blue-700 hover:underline">
            {card.name}
          </Link>
          <p className="truncate text-xs text-slate-500">
            {card.namespace}
            {card.type ? ` · ${card.type}` : ''}
          </p>
        </div>
      </div>
      {card.description ? <p className="line-clamp-2 text-sm text-slate-600">{card.description}</p> : null}
      <HealthBar counts={card.health} />
      <dl className="grid grid-cols-3 gap-2">
        <Count label="Environments" value={card.environments.length} />
        <Count label="Configs" value={card.configs} />
        <Count label="Open incidents" value={card.open_incidents} tone={card.open_incidents > 0 ? 'text-red-600' : 'text-slate-900'} />
      </dl>
      {card.environments.length > 0 ? <p className="truncate text-xs text-slate-500">{card.environments.join(', ')}</p> : null}
    </li>
  );
}

/** Spec §2 /applications: each application as a card (health, environments, configs, open incidents), searchable. */
export default function ApplicationsPage() {
  const [params, setParams] = useUrlParams();
  const search = readSearchParams(params).q ?? '';
  const applications = useApplications();
  const shown = useMemo(() => filterApplications(applications.data ?? [], search), [applications.data, search]);
  const none = !applications.isPending && !applications.error && (applications.data?.length ?? 0) === 0;

  return (
    <Page title="Applications" onRefresh={() => void applications.refetch()} refreshing={applications.isFetching}>
      <div className="flex flex-col gap-4">
        {none ? null : (
          <div className="max-w-sm">
            <SearchBox label="Search applications" value={search} onCommit={(q) => setParams((current) => patchSearchParams(current, { q }))} placeholder="Search applications" />
          </div>
        )}
        {applications.error ? (
          <p role="alert" className="text-sm text-red-600">
            {applications.error.message}
          </p>
        ) : null}
        {applications.isPending ? <Loading /> : null}
        {none ? (
          <EmptyState
            icon={<AppWindow className="size-5" aria-hidden="true" />}
            title="No applications yet"
            description={
              <>
                An application groups a system&apos;s config items by environment, with who logs in and who holds which role, into an audit report. Add one
                with <code>watchkeeper apply -f</code> and a <code>kind: Application</code> file, as in <code>examples/applications/</code>.
              </>
            }
            action={
              <a href={docsUrl('APPLICATIONS.md')} className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline">
                <BookOpen className="size-4" aria-hidden="true" />
                How to add an application
              </a>
            }
          />
        ) : null}
        {!none && !applications.isPending && shown.length === 0 && !applications.error ? <EmptyState title="No applications match the search" /> : null}
        {shown.length > 0 ? (
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Applications">
            {shown.map((card) => (
              <Card key={card.id} card={card} />
            ))}
          </ul>
        ) : null}
      </div>
    </Page>
  );
}
