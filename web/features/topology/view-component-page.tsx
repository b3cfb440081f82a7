import { Link, useParams } from 'react-router';
import { useDocumentTitle } from '@web/app/layout/document-title';
import { useShowHiddenComponents } from '@web/lib/preferences';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { useTopology } from './api';
import { ComponentCard, componentName } from './component-card';
import { useDisplayPreferences } from '@web/lib/preferences';

/** Spec §2 /view/topology/{id}: the card alone, without the console around it, to share or embed. */
export default function ViewComponentPage() {
  const { id = '' } = useParams();
  const [showHidden] = useShowHiddenComponents();
  const { cardWidth } = useDisplayPreferences();
  const tree = useTopology(id, { hidden: showHidden, depth: 1 });
  const component = tree.data?.components[0];
  useDocumentTitle(component ? componentName(component) : 'Component');
  return (
    <main className="flex min-h-screen items-start justify-center bg-slate-50 p-6">
      {tree.isPending ? <Loading className="py-16" /> : null}
      {tree.error ? (
        <EmptyState
          className="py-16"
          title={'status' in tree.error && tree.error.status === 404 ? 'Component not found' : 'The component could not be loaded'}
          description={<Link to="/topology" className="text-blue-700 hover:underline">Open the topology</Link>}
        />
      ) : null}
      {component ? <ComponentCard component={component} width={cardWidth} /> : null}
    </main>
  );
}
