import { Server } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** Spec §2 /settings/agents (query id): guarded by read on agents (spec §6), feature flag 'agents'. */
export const routes: AppRoute[] = [
  {
    path: 'settings/agents',
    load: () => import('./agents-page'),
    feature: 'agents',
    nav: { label: 'Agents', section: 'settings', icon: Server },
    access: { resource: 'agents', action: 'read' },
  },
];
