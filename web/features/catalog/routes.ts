import { Library } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** The catalog's relations are read with the config_scrapers object (server/postgrest/relations/catalog.ts). */
const access = { resource: 'config_scrapers', action: 'read' } as const;
const feature = 'config';

/**
 * Spec §2: /catalog (summary and items), an item's pages (/catalog/{id} and its scoped tabs) and the old
 * /configs address. /catalog/changes, /catalog/insights, /catalog/scrapers and /catalog/{id}/changes are
 * catalog-activity's; their static segments outrank `:id`.
 */
export const routes: AppRoute[] = [
  {
    path: 'catalog',
    load: () => import('./list/catalog-page'),
    feature,
    access,
    // Spec §2 main sidebar: Dashboard, Health, Incidents, Catalog, …
    nav: { label: 'Catalog', section: 'main', icon: Library, order: 4 },
  },
  { path: 'catalog/:id', load: () => import('./detail/spec-page'), feature, access },
  { path: 'catalog/:id/insights', load: () => import('./detail/insights-page'), feature, access },
  { path: 'catalog/:id/relationships', load: () => import('./detail/relationships-page'), feature, access },
  // The checks are health's (check_summary_for_config): the tab needs canaries as well.
  { path: 'catalog/:id/checks', load: () => import('./detail/checks-page'), feature, access: { resource: 'canaries', action: 'read' } },
  { path: 'configs', load: () => import('./configs-redirect'), feature, access },
  { path: 'configs/*', load: () => import('./configs-redirect'), feature, access },
];
