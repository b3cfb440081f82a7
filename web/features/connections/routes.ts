import { Plug } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/**
 * Spec §2 /settings/connections: admins only (spec §6: every other role lacks the connections object),
 * and gone with the 'settings.connections' flag. Static paths outrank the generic `settings/:table/:id`.
 */
export const routes: AppRoute[] = [
  {
    path: 'settings/connections',
    load: () => import('./connections-page'),
    feature: 'settings.connections',
    nav: { label: 'Connections', section: 'settings', icon: Plug },
    access: { resource: 'connections', action: 'read' },
  },
  {
    path: 'settings/connections/new',
    load: () => import('./new-connection-page'),
    feature: 'settings.connections',
    access: { resource: 'connections', action: 'create' },
  },
  {
    path: 'settings/connections/:id',
    load: () => import('./connection-detail-page'),
    feature: 'settings.connections',
    access: { resource: 'connections', action: 'read' },
  },
];
