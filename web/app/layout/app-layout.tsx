import { MIN_LAYOUT_WIDTH_PX } from '@common/constants';
import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { BackendGate } from '@web/features/hosted/backend-gate';
import { OrganizationChooser } from '@web/features/organizations/organization-chooser';
import { Button } from '@web/ui/primitives/button';
import { Loading } from '@web/ui/primitives/loading';
import { ErrorPage } from '../pages/error-page';
import type { AppRoute } from '../route-types';
import { useSession } from '../session';
import { Sidebar } from './sidebar';

/** Settings → Organizations (web/features/organizations-admin), open to platform administrators before they choose one. */
const ORGANIZATIONS_ADMIN_PATH = '/settings/organizations';

/** Where a person who is not (fully) signed in goes, coming back to `here` afterwards (spec §6). */
export function loginPath(here: string, secondFactor = false): string {
  return `/login?${secondFactor ? 'aal=aal2&' : ''}return_to=${encodeURIComponent(here)}`;
}

/**
 * Spec §6: only signed-in people get past this. While the session loads `loading` shows; without a
 * session the person goes to /login (with aal=aal2 when a second factor is pending) and comes back here.
 */
export function SessionGate({ loading, children }: { loading: ReactNode; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  if (session.status === 'ready' && !session.user) return <Navigate to={loginPath(here)} replace />;
  if (session.status === 'second-factor') return <Navigate to={loginPath(here, true)} replace />;
  if (session.status === 'error') {
    return (
      <ErrorPage
        className="min-h-screen"
        title="Could not check your session"
        error={session.error}
        showDetails={false}
        actions={
          <Button variant="primary" onClick={session.retry}>
            Try again
          </Button>
        }
      />
    );
  }
  if (session.status === 'loading') return loading;
  // Spec §6: hosted mode needs an organization selected (docs/HOSTED.md).
  const hosted = session.user?.hosted;
  if (hosted && !hosted.organization) {
    // A platform administrator may manage the organizations before choosing one: the first one is made there.
    // Nobody else: outside an organization the server lets no one else manage any (docs/HOSTED.md), and the
    // console's own admin role counts for nothing there.
    const platformAdmin = session.user?.platformAdmin === true;
    if (platformAdmin && location.pathname === ORGANIZATIONS_ADMIN_PATH) return children;
    return <OrganizationChooser hosted={hosted} signOut={session.signOut} manage={platformAdmin ? ORGANIZATIONS_ADMIN_PATH : undefined} />;
  }
  // Spec §1: the provisioning screen until the organization's backend answers (web/features/hosted).
  if (hosted?.organization) return <BackendGate organization={hosted.organization}>{children}</BackendGate>;
  return children;
}

/**
 * Sidebar plus the current page, for signed-in people only. Spec §2: the layout never shrinks below
 * 800 px; the window scrolls. While the session loads the sidebar shows its skeleton.
 */
export function AppLayout({ routes }: { routes: readonly AppRoute[] }) {
  const page = (content: ReactNode) => (
    <div className="flex min-h-screen" style={{ minWidth: MIN_LAYOUT_WIDTH_PX }}>
      <Sidebar routes={routes} />
      <div className="flex min-w-0 flex-1 flex-col">{content}</div>
    </div>
  );
  return (
    <SessionGate loading={page(<Loading className="py-24" />)}>
      {page(
        <Suspense fallback={<Loading className="py-24" />}>
          <Outlet />
        </Suspense>,
      )}
    </SessionGate>
  );
}

/** Signed-in pages without the sidebar (route layout 'bare'): the page fills the window. */
export function BareLayout() {
  return (
    <SessionGate loading={<Loading className="min-h-screen" />}>
      <div className="flex min-h-screen flex-col" style={{ minWidth: MIN_LAYOUT_WIDTH_PX }}>
        <Suspense fallback={<Loading className="py-24" />}>
          <Outlet />
        </Suspense>
      </div>
    </SessionGate>
  );
}
