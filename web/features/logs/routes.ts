import { ScrollText } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** Spec §2: /logs. */
export const routes: AppRoute[] = [
  {
    path: 'logs',
    load: () => import('./logs-page'),
    feature: 'logs',
    access: { resource: 'logging_backends', action: 'read' },
    nav: { label: 'Logs', section: 'main', icon: ScrollText, order: 5 },
  },
];
