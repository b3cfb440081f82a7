import { ShieldCheck } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** Spec §2 /settings/permissions: reading permission rows is reading rbac (editors do not have it). */
export const routes: AppRoute[] = [
  {
    path: 'settings/permissions',
    load: () => import('./permissions-page'),
    feature: 'settings.permissions',
    access: { resource: 'rbac', action: 'read' },
    nav: { label: 'Permissions', section: 'settings', icon: ShieldCheck },
  },
];
