import { Siren } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'incident', action: 'read' } as const;
const feature = 'incidents';

/** Spec §2: /incidents and /incidents/{id}. */
export const routes: AppRoute[] = [
  { path: 'incidents', load: () => import('./list/incidents-page'), feature, access, nav: { label: 'Incidents', section: 'main', icon: Siren, order: 3 } },
  { path: 'incidents/:id', load: () => import('./detail/incident-page'), feature, access },
];
