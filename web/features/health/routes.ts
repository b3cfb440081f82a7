import { HeartPulse } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'canaries', action: 'read' } as const;

/** The page's code and its list of checks load side by side (api/summary.ts preloadSummary). */
function loadWithChecks<T>(page: () => Promise<T>): () => Promise<T> {
  return () => {
    void import('./api/summary').then((summary) => summary.preloadSummary(window.location.search)).catch(() => undefined);
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
