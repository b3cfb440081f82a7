import { MIN_LAYOUT_WIDTH_PX } from '@common/constants';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Button } from '@web/ui/primitives/button';
import { Loading } from '@web/ui/primitives/loading';
import { ErrorPage } from '../pages/error-page';
import type { AppRoute } from '../route-types';
import { useSession } from '../session';
import { Sidebar } from './sidebar';

/** Where a person who is not (fully) signed in goes, coming back to `here` afterwards (spec §6). */
export function loginPath(here: string, secondFactor = false): string {
  return `/login?${secondFactor ? 'aal=aal2&' : ''}return_to=${encodeURIComponent(here)}`;
}

/**
 * Sidebar plus the current page, for signed-in people only. Spec §2: the layout never shrinks below
 * 800 px; the window scrolls. While the session loads the sidebar shows its skeleton; without a session
 * the person goes to /login (with aal=aal2 when a second factor is pending) and comes back here.
 */
export function AppLayout({ routes }: { routes: readonly AppRoute[] }) {
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
  return (
    <div className="flex min-h-screen" style={{ minWidth: MIN_LAYOUT_WIDTH_PX }}>
      <Sidebar routes={routes} />
      <div className="flex min-w-0 flex-1 flex-col">
        {session.status === 'loading' ? (
          <Loading className="py-24" />
        ) : (
          <Suspense fallback={<Loading className="py-24" />}>
            <Outlet />
          </Suspense>
        )}
      </div>
    </div>
  );
}
