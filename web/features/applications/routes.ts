import { AppWindow } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** Spec §6: applications are guarded by the views resource and the 'applications' flag. */
const access = { resource: 'views', action: 'read' } as const;
const feature = 'applications';

/** Spec §2: /applications (cards) and /applications/{namespace}/{name} (the audit report; ?print=1 for the PDF). */
export const routes: AppRoute[] = [
  {
    path: 'applications',
    load: () => import('./applications-page'),
    feature,
    access,
    // Spec §2 main sidebar: Dashboard, Health, Incidents, Catalog, Logs, Playbooks, Applications.
    nav: { label: 'Applications', section: 'main', icon: AppWindow, order: 7 },
  },
  { path: 'applications/:namespace/:name', load: () => import('./report-page'), feature, access },
];
