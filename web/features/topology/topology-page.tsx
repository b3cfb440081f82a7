import { Network } from 'lucide-react';
import { Link } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess } from '@web/app/session';
import { useShowHiddenComponents } from '@web/lib/preferences';
import { useUrlParams } from '@web/lib/use-url-params';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { useTopology } from './api';
import { CardGrid } from './card-grid';
import { TopologyFilterBar } from './filter-bar';
import { activeFilterCount, applyFilters, readFilters } from './filters';

/** Spec §2 /topology, the home page: every system as a card, unhealthy first, with its filters. */
export default function TopologyPage() {
  const [showHidden] = useShowHiddenComponents();
  const [params] = useUrlParams();
  const filters = readFilters(params);
  const tree = useTopology(undefined, { hidden: showHidden });
  const access = useAccess();
  const roots = tree.data?.components ?? [];
  const shown = applyFilters(roots, filters);
  return (
    // Named as the sidebar's link to it (spec §2 "Dashboard"): a link leads to a page that shows what it names.
    <Page title="Dashboard" onRefresh={() => void tree.refetch()} refreshing={tree.isFetching}>
      <div className="flex flex-col gap-4">
        <TopologyFilterBar facets={tree.data} />
        {tree.isPending ? <Loading className="py-16" /> : null}
        {tree.error ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            The topology could not be loaded: {tree.error.message}
          </p>
        ) : null}
        {tree.data && roots.length === 0 ? (
          <EmptyState
            className="py-16"
            icon={<Network className="size-5" aria-hidden="true" />}
            title="No components"
            description={
              <>
                A topology describes a system as components built from the catalog and the health checks.{' '}
                {access.can('topologies', 'create') ? (
                  <Link to="/settings/topologies/new" className="text-blue-700 hover:underline">
                    Add a topology
                  </Link>
                ) : (
                  'Ask an editor to add one'
                )}
                , or apply one with <code>watchkeeper apply -f</code>.
              </>
            }
          />
        ) : null}
        {roots.length > 0 && shown.length === 0 ? (
          <EmptyState className="py-16" title="No components match the filters" description={`${activeFilterCount(filters)} filters are active.`} />
        ) : null}
        {shown.length > 0 ? <CardGrid components={shown} label="Components" /> : null}
      </div>
    </Page>
  );
}
