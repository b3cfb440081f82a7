import { HeartPulse } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'canaries', action: 'read' } as const;

/**
 * The page's code and its first answer load side by side (api/check-page.ts preloadCheckPage: a page of
 * checks, or the pivot's grid with pivotBy).
 */
function loadWithChecks<T>(page: () => Promise<T>): () => Promise<T> {
  return () => {
    const search = window.location.search;
    void import('./api/check-page').then((list) => list.preloadCheckPage(search)).catch(() => undefined);
    return page();
  };
}

/** Spec §2 Health page and its chrome-less view; checks open in a drawer on /health (checkId). */
export const routes: AppRoute[] = [
  {
    path: 'health',
    load: loadWithChecks(() => import('./health-page')),
    feature: 'health',
    access,
    nav: { label: 'Health', section: 'main', icon: HeartPulse, order: 2 },
  },
  { path: 'view/health', load: loadWithChecks(() => import('./view-health-page')), feature: 'health', access, layout: 'bare' },
];
