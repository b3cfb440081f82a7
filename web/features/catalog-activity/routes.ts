import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'config_scrapers', action: 'read' } as const;

/**
 * Spec §2 catalog activity: the change feed of every config, one config's changes, and the insights. They
 * are the catalog's pages (feature 'config'; reading the catalog is reading config_scrapers, spec §6), with
 * no menu entry of their own: the Catalog entry and the section links lead here.
 */
export const routes: AppRoute[] = [
  { path: 'catalog/changes', load: () => import('./changes/changes-page'), feature: 'config', access },
  { path: 'catalog/insights', load: () => import('./insights/insights-page'), feature: 'config', access },
  { path: 'catalog/:id/changes', load: () => import('./changes/config-changes-page'), feature: 'config', access },
];
