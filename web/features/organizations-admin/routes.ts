import { canAccess } from '@common/rbac';
import { Building2 } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';
import type { SessionUser } from '@web/app/session';

/**
 * Who the server lets manage organizations (docs/HOSTED.md "Platform administrators and organization
 * admins"): a platform administrator, whatever their role where they work, or the admin of the organization
 * they work in (its members only). Anyone else would meet a 403 there, so they see neither the page nor its
 * menu entry; the console's own admin role counts for nothing here.
 */
export function managesOrganizations(user: SessionUser): boolean {
  return user.platformAdmin === true || (user.hosted !== undefined && user.hosted.organization !== null && user.hosted.role === 'admin' && canAccess(user.permissions, 'identities', 'read'));
}

/** Settings → Organizations: hosted mode only (its menu entry shows when GET /api/auth/mode says oidc). */
export const routes: AppRoute[] = [
  {
    path: 'settings/organizations',
    load: () => import('./organizations-page'),
    nav: { label: 'Organizations', section: 'settings', icon: Building2 },
    allows: managesOrganizations,
    authMode: 'oidc',
  },
];
