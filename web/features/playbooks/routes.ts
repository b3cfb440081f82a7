import { BookOpenCheck } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'playbooks', action: 'read' } as const;
const runsAccess = { resource: 'playbook_runs', action: 'read' } as const;
const feature = 'playbooks';

/**
 * Spec §2 playbook pages: the playbooks, their runs (?playbook={id}), one run, one playbook (with its
 * editor) and a new one; and the Playbooks tab of a config item. The 'playbooks' flag hides them all.
 */
export const routes: AppRoute[] = [
  {
    path: 'playbooks',
    load: () => import('./list/playbooks-page'),
    feature,
    access,
    // Spec §2 main sidebar: Dashboard, Health, Incidents, Catalog, Logs, Playbooks, Applications.
    nav: { label: 'Playbooks', section: 'main', icon: BookOpenCheck, order: 6 },
  },
  { path: 'playbooks/runs', load: () => import('./runs/runs-page'), feature, access: runsAccess },
  { path: 'playbooks/runs/:id', load: () => import('./runs/run-page'), feature, access: runsAccess },
  { path: 'playbooks/new', load: () => import('./detail/new-playbook-page'), feature, access: { resource: 'playbooks', action: 'create' } },
  { path: 'playbooks/:id', load: () => import('./detail/playbook-page'), feature, access },
  // The Playbooks tab of a config item (web/features/catalog/components/config-tabs.tsx).
  { path: 'catalog/:id/playbooks', load: () => import('./tabs/config-playbooks-page'), feature: 'config', access: runsAccess },
];
