import { LayoutGrid } from 'lucide-react';
import { Navigate } from 'react-router';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { Page } from '../layout/page';
import { buildNav, homeTarget } from '../layout/sidebar-nav';
import type { AppRoute } from '../route-types';

/** '/': the first area that exists and is enabled, in sidebar order, else the first settings page. */
export function HomeRedirect({ routes }: { routes: readonly AppRoute[] }) {
  const flags = useFeatureFlags();
  if (!flags.ready) return <Loading className="py-24" />;
  const target = homeTarget(buildNav(routes, flags.isEnabled));
  if (target) return <Navigate to={target} replace />;
  return (
    <Page title="Home">
      <EmptyState
        className="py-24"
        icon={<LayoutGrid className="size-5" aria-hidden="true" />}
        title="No areas are enabled"
        description="Every area of the console is switched off by a feature flag, or none is installed in this build."
      />
    </Page>
  );
}
