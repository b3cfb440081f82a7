import { lazy } from 'react';
import { createBrowserRouter, useRouteError, type RouteObject } from 'react-router';
import { FeatureGate } from './feature-gate';
import { AppLayout } from './layout/app-layout';
import { ErrorPage } from './pages/error-page';
import { HomeRedirect } from './pages/home-redirect';
import NotFoundPage from './pages/not-found-page';
import type { AppRoute } from './route-types';
import { appRoutes } from './routes';

/** Errors outside a page's boundary (a route chunk that fails to load, a loader): the generic page. */
function RouteError() {
  const error = useRouteError();
  console.error('Route failed', error);
  return <ErrorPage error={error} className="min-h-screen" />;
}

/** Each page becomes its own chunk; the gate hides pages of disabled features. */
function toRouteObject(route: AppRoute): RouteObject {
  const PageComponent = lazy(route.load);
  return {
    path: route.path,
    element: (
      <FeatureGate feature={route.feature}>
        <PageComponent />
      </FeatureGate>
    ),
  };
}

export function buildRouteObjects(routes: readonly AppRoute[]): RouteObject[] {
  return [
    {
      path: '/',
      element: <AppLayout routes={routes} />,
      errorElement: <RouteError />,
      children: [{ index: true, element: <HomeRedirect routes={routes} /> }, ...routes.map(toRouteObject), { path: '*', element: <NotFoundPage /> }],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects(appRoutes));
}
