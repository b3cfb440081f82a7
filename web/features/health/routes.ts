import { HeartPulse } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'canaries', action: 'read' } as const;

/** Spec §2 Health page and its chrome-less view; checks open in a drawer on /health (checkId). */
export const routes: AppRoute[] = [
  {
    path: 'health',
    load: () => import('./health-page'),
    feature: 'health',
    access,
    nav: { label: 'Health', section: 'main', icon: HeartPulse, order: 2 },
  },
  { path: 'view/health', load: () => import('./view-health-page'), feature: 'health', access, layout: 'bare' },
];
