import type { AppRoute } from '@web/app/route-types';
import { CATALOG_FEATURE, EDITOR_FEATURE } from './paths';

const read = { resource: 'config_scrapers', action: 'read' } as const;

/**
 * Spec §2 /catalog/scrapers and /catalog/scrapers/{id}: scrapers are not a generic settings resource, they
 * live with the catalog (feature 'config'); their editor is the settings page config_scraper (spec §6,
 * which goes with the config area). The Catalog menu entry is the catalog list's.
 */
export const routes: AppRoute[] = [
  { path: 'catalog/scrapers', load: () => import('./pages/scrapers-list-page'), feature: CATALOG_FEATURE, access: read },
  { path: 'catalog/scrapers/new', load: () => import('./pages/new-scraper-page'), feature: EDITOR_FEATURE, access: { resource: 'config_scrapers', action: 'create' } },
  { path: 'catalog/scrapers/:id', load: () => import('./pages/scraper-page'), feature: CATALOG_FEATURE, access: read },
];
