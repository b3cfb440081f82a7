import { Blocks } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';
import { INTEGRATIONS_FEATURE } from './catalog';

/**
 * Spec §2 /settings/integrations (Settings menu 'Integrations', read on integrations) and
 * /settings/integrations/{type}/{id} (write on integrations, else the Unauthorized page; `new` as the id
 * is the create form of the Add Directly items). The 'settings.integrations' flag hides both.
 */
export const routes: AppRoute[] = [
  {
    path: 'settings/integrations',
    load: () => import('./integrations-page'),
    feature: INTEGRATIONS_FEATURE,
    nav: { label: 'Integrations', section: 'settings', icon: Blocks },
    access: { resource: 'integrations', action: 'read' },
  },
  {
    path: 'settings/integrations/:type/:id',
    load: () => import('./integration-detail-page'),
    feature: INTEGRATIONS_FEATURE,
    access: { resource: 'integrations', action: 'write' },
  },
];
