import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, Outlet, useRouteError, type RouteObject } from 'react-router';
import { prefetchFeatureFlags } from '@web/lib/feature-flags';
import { onUnauthorized } from '@web/lib/unauthorized';
import { Loading } from '@web/ui/primitives/loading';
import { AccessGate } from './access-gate';
import { FeatureGate } from './feature-gate';
import { AppLayout, BareLayout } from './layout/app-layout';
import { ErrorPage } from './pages/error-page';
import { HomeRedirect } from './pages/home-redirect';
import NotFoundPage from './pages/not-found-page';
import type { AppRoute } from './route-types';
import { appRoutes } from './routes';
import { discoverSessionSource, preloadSession } from './session';

/** Errors outside a page's boundary (a route chunk that fails to load, a loader): the generic page. */
function RouteError() {
  const error = useRouteError();
  console.error('Route failed', error);
  return <ErrorPage error={error} className="min-h-screen" />;
}

const pageModules = new WeakMap<AppRoute, Promise<{ default: ComponentType }>>();

/**
 * The route's page module, asked for once: the preload at start (createAppRouter) and the page's lazy()
 * share the promise. A failed load is forgotten, so the page asks again (and shows the error if it fails).
 */
export function loadPage(route: AppRoute): Promise<{ default: ComponentType }> {
  let module = pageModules.get(route);
  if (!module) {
    module = route.load();
    pageModules.set(route, module);
    module.catch(() => pageModules.delete(route));
  }
  return module;
}

/** The route `pathname` opens, if any (its page module can then load at app start, see createAppRouter). */
export function matchRoute(routes: readonly AppRoute[], pathname: string): AppRoute | undefined {
  const matches = matchRoutes(
    routes.map((route) => ({ path: route.path, route })),
    pathname,
  );
  return matches?.[matches.length - 1]?.route.route;
}

/**
 * The page as a lazy component over `loadPage`. Each lazy() gets a promise of its own: React marks the
 * promises it waits on as fulfilled, and one it already saw settle (the same page in an earlier router)
 * would make it retry the still-pending lazy() at once, again and again.
 */
function lazyPage(route: AppRoute) {
  return lazy(() => loadPage(route).then((module) => module));
}

/** Each page becomes its own chunk; the gates hide pages of disabled features and guard access. */
function toRouteObject(route: AppRoute): RouteObject {
  const PageComponent = lazyPage(route);
  return {
    path: route.path,
    element: (
      <FeatureGate feature={route.feature}>
        <AccessGate access={route.access} allows={route.allows}>
          <PageComponent />
        </AccessGate>
      </FeatureGate>
    ),
  };
}

/** Public pages (sign-in, errors) need no session and no feature flags: only their own chunk. */
function toPublicRouteObject(route: AppRoute): RouteObject {
  const PageComponent = lazyPage(route);
  return { path: route.path, element: <PageComponent /> };
}

function PublicLayout() {
  return (
    <Suspense fallback={<Loading className="min-h-screen" />}>
      <Outlet />
    </Suspense>
  );
}

export function buildRouteObjects(routes: readonly AppRoute[]): RouteObject[] {
  const publicRoutes = routes.filter((route) => route.layout === 'public');
  const barePages = routes.filter((route) => route.layout === 'bare');
  const appPages = routes.filter((route) => route.layout === undefined);
  return [
    { element: <PublicLayout />, errorElement: <RouteError />, children: publicRoutes.map(toPublicRouteObject) },
    // Signed-in pages without the sidebar keep the feature and access gates of the others.
    { element: <BareLayout />, errorElement: <RouteError />, children: barePages.map(toRouteObject) },
    {
      path: '/',
      element: <AppLayout routes={appPages} />,
      errorElement: <RouteError />,
      children: [{ index: true, element: <HomeRedirect routes={appPages} /> }, ...appPages.map(toRouteObject), { path: '*', element: <NotFoundPage /> }],
    },
  ];
}

/** True when `pathname` is one of the public pages, where a 401 is expected and not acted on. */
export function isPublicPath(routes: readonly AppRoute[], pathname: string): boolean {
  const objects = routes.filter((route) => route.layout === 'public').map((route) => ({ path: route.path }));
  return (matchRoutes(objects, pathname) ?? []).length > 0;
}

export const AUTH_STATE_CHECKER_PATH = '/auth-state-checker';

/**
 * Spec §8: a 401 from the API sends the browser to the auth-state checker with the current path and
 * query as return_to, except on public pages (the sign-in pages expect to be signed out).
 */
export function redirectOnUnauthorized(router: { state: { location: { pathname: string; search: string } }; navigate: (to: string) => unknown }, routes: readonly AppRoute[]) {
  return onUnauthorized(() => {
    const { pathname, search } = router.state.location;
    if (isPublicPath(routes, pathname)) return;
    void router.navigate(`${AUTH_STATE_CHECKER_PATH}?return_to=${encodeURIComponent(`${pathname}${search}`)}`);
  });
}

export function createAppRouter() {
  // At start, before the first render, at once: whoami, (for a signed-in page) the feature flags and the
  // page's chunks; the page waits for all three. The two small requests go first: over HTTP/1.1 the
  // browser's six connections would queue them behind the chunks.
  const source = discoverSessionSource();
  if (source) preloadSession(source);
  const opening = matchRoute(appRoutes, window.location.pathname);
  if (opening?.layout !== 'public') prefetchFeatureFlags();
  if (opening) loadPage(opening).catch(() => undefined);
  const router = createBrowserRouter(buildRouteObjects(appRoutes));
  redirectOnUnauthorized(router, appRoutes);
  return router;
}
