import { isViewer } from '@common/rbac';
import { LayoutGrid } from 'lucide-react';
import { Navigate } from 'react-router';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { Page } from '../layout/page';
import { buildNav, homeTarget } from '../layout/sidebar-nav';
import type { AppRoute } from '../route-types';
import { useAccess, useSession } from '../session';

/** '/': the first area that exists and is enabled, in sidebar order, else the first settings page. */
export function HomeRedirect({ routes }: { routes: readonly AppRoute[] }) {
  const flags = useFeatureFlags();
  const access = useAccess();
  const session = useSession();
  if (!flags.ready) return <Loading className="py-24" />;
  const nav = buildNav(routes, flags.isEnabled, (resource) => access.can(resource, 'read'));
  // Like the sidebar (spec §6): viewers and guests are not led into the settings.
  const viewer = session.status === 'ready' && session.user !== undefined && isViewer(session.user.roles);
  const target = homeTarget(viewer ? { ...nav, settings: [] } : nav);
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
