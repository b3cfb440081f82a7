import { Building2 } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** Settings → Organizations: hosted mode only (its menu entry shows when GET /api/auth/mode says oidc). */
export const routes: AppRoute[] = [
  {
    path: 'settings/organizations',
    load: () => import('./organizations-page'),
    nav: { label: 'Organizations', section: 'settings', icon: Building2 },
    access: { resource: 'identities', action: 'read' },
    authMode: 'oidc',
  },
];
