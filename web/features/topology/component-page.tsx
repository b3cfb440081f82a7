import { Download, Share2 } from 'lucide-react';
import { Fragment } from 'react';
import { Link, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess } from '@web/app/session';
import { ConfigHealthBadge } from '@web/features/catalog/components';
import { RunNowButton } from '@web/features/health/detail/run-now';
import { ResourceNotificationsSection } from '@web/features/notifications/tabs/resource-notifications-section';
import { AttachEvidenceButton } from '@web/features/incidents/link/attach-evidence';
import { RunPlaybookMenu } from '@web/features/playbooks/run/run-menu';
import { useShowHiddenComponents } from '@web/lib/preferences';
import { toast } from '@web/lib/toast';
import { useUrlParams } from '@web/lib/use-url-params';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { useRunTopology, useTopology } from './api';
import { CardGrid } from './card-grid';
import { ComponentIcon } from './component-icon';
import { componentName } from './component-card';
import { ComponentSidebar } from './component-sidebar';
import { TopologyFilterBar } from './filter-bar';
import { applyFilters, readFilters } from './filters';

/** Spec §2 /topology/{id}: breadcrumbs up the hierarchy, the component, its children as cards, its details. */
export default function ComponentPage() {
  const { id = '' } = useParams();
  const [showHidden] = useShowHiddenComponents();
  const [params] = useUrlParams();
  const tree = useTopology(id, { hidden: showHidden, depth: 2 });
  const run = useRunTopology();
  const access = useAccess();
  const component = tree.data?.components[0];
  const children = component?.components ?? [];
  const shown = applyFilters(children, readFilters(params));
  const title = component ? componentName(component) : 'Component';
  const notFound = tree.error && 'status' in tree.error && tree.error.status === 404;
  return (
    <Page title={title} onRefresh={() => void tree.refetch()} refreshing={tree.isFetching}>
      {tree.isPending ? <Loading className="py-16" /> : null}
      {notFound ? <EmptyState className="py-16" title="Component not found" description={<Link to="/topology" className="text-blue-700 hover:underline">Back to the topology</Link>} /> : null}
      {tree.error && !notFound ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          The component could not be loaded: {tree.error.message}
        </p>
      ) : null}
      {component ? (
        <div className="flex flex-col gap-4">
          <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1.5 text-sm text-slate-600">
            <Link to="/topology" className="text-blue-700 hover:underline">
              Dashboard
            </Link>
            {tree.data?.parents.map((parent) => (
              <Fragment key={parent.id}>
                <span aria-hidden="true" className="text-slate-400">/</span>
                <Link to={`/topology/${parent.id}`} className="text-blue-700 hover:underline">
                  {componentName(parent)}
                </Link>
              </Fragment>
            ))}
            <span aria-hidden="true" className="text-slate-400">/</span>
            <span aria-current="page" className="font-medium text-slate-900">
              {title}
            </span>
          </nav>
          <header className="flex flex-wrap items-start gap-3">
            <ComponentIcon icon={component.icon} type={component.type} className="mt-1 size-6 text-slate-600" />
            <div className="min-w-0 flex-1">
              <p className="text-lg font-semibold text-slate-900">{title}</p>
              <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                <ConfigHealthBadge health={component.health} status={component.status} />
                {component.type ? <span>· {component.type}</span> : null}
              </p>
              {component.status_reason && component.health !== 'healthy' ? <p className="mt-1 text-sm text-red-700">{component.status_reason}</p> : null}
            </div>
            <div className="flex items-center gap-2">
              <RunPlaybookMenu target={{ kind: 'component', id: component.id, name: title }} />
              <AttachEvidenceButton target={{ type: 'topology', component_id: component.id, summary: `the component ${title} with its health now` }} />
              {component.topology_id && access.can('topologies', 'update') ? (
                <RunNowButton
                  running={run.isPending}
                  onRun={() =>
                    run.mutate(component.topology_id ?? '', {
                      onSuccess: (result) => toast.success(`Topology ran: ${result.created} created, ${result.updated} updated, ${result.deleted} deleted${result.errors.length ? `, ${result.errors.length} errors` : ''}`),
                      onError: (error) => toast.error(error),
                    })
                  }
                />
              ) : null}
              <a href={`/api/snapshot/topology/${component.id}`} download className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-700 shadow-sm hover:bg-slate-50">
                <Download className="size-3.5" aria-hidden="true" />
                Download snapshot
              </a>
              <Link to={`/view/topology/${component.id}`} className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-700 shadow-sm hover:bg-slate-50">
                <Share2 className="size-3.5" aria-hidden="true" />
                Card view
              </Link>
            </div>
          </header>
          <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
            <div className="flex min-w-0 flex-1 flex-col gap-4">
              {children.length > 0 ? <TopologyFilterBar facets={tree.data} /> : null}
              {component.children_count === 0 ? <EmptyState className="py-10" title="No components below this one" /> : null}
              {children.length > 0 && shown.length === 0 ? <EmptyState className="py-10" title="No components match the filters" /> : null}
              {shown.length > 0 ? <CardGrid components={shown} label={`Components of ${title}`} narrowest={340} /> : null}
              <ResourceNotificationsSection resourceId={component.id} kind="component" />
            </div>
            <ComponentSidebar component={component} />
          </div>
        </div>
      ) : null}
    </Page>
  );
}
