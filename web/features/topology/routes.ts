import { LayoutDashboard } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'topologies', action: 'read' } as const;
const feature = 'topology';

/** Spec §2: /topology (the Dashboard, where / leads), a component's page, and its card alone. */
export const routes: AppRoute[] = [
  { path: 'topology', load: () => import('./topology-page'), feature, access, nav: { label: 'Dashboard', section: 'main', icon: LayoutDashboard, order: 1 } },
  { path: 'topology/:id', load: () => import('./component-page'), feature, access },
  { path: 'view/topology/:id', load: () => import('./view-component-page'), feature, access, layout: 'bare' },
];
