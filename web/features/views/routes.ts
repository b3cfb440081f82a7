import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'views', action: 'read' } as const;
const feature = 'views';

/**
 * Spec §2 view pages: /views/{id}, /view/{namespace}/{name}, /view/{name}, and a view as a tab of a
 * catalog item, /catalog/{id}/view/{viewId}. The 'views' flag hides them all. (Sidebar entries for
 * views and /settings/views belong to web/features/view-settings.)
 */
export const routes: AppRoute[] = [
  { path: 'views/:id', load: () => import('./pages/view-page'), feature, access },
  { path: 'view/:namespace/:name', load: () => import('./pages/view-by-name-page'), feature, access },
  { path: 'view/:name', load: () => import('./pages/view-by-name-page'), feature, access },
  { path: 'catalog/:id/view/:viewId', load: () => import('./pages/config-view-page'), feature, access },
];
