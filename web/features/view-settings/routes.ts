import { Table2 } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const feature = 'views';

/**
 * Spec §2 /settings/views: the views (Settings submenu 'Views'), a new one and one view's editor. The
 * 'views' flag hides them; reading needs views read, a new view views create (spec §6 route guards).
 */
export const routes: AppRoute[] = [
  {
    path: 'settings/views',
    load: () => import('./list/views-list-page'),
    feature,
    access: { resource: 'views', action: 'read' },
    nav: { label: 'Views', section: 'settings', icon: Table2 },
  },
  { path: 'settings/views/new', load: () => import('./detail/new-view-page'), feature, access: { resource: 'views', action: 'create' } },
  { path: 'settings/views/:id', load: () => import('./detail/view-settings-page'), feature, access: { resource: 'views', action: 'read' } },
];
