import type { Feature } from '../../platform/context';
import { integrationRoutes } from './routes';

/**
 * Integrations (spec §2 /settings/integrations, §6 resource 'integrations', §7 /integrations_with_status
 * and the GitOps wizard's charts; docs/INTEGRATIONS.md). The list itself is the /api/db relation
 * integrations_with_status (migration 0027); this feature serves the charts.
 */
export const integrationsFeature: Feature = {
  name: 'integrations',
  register(app, ctx) {
    integrationRoutes(app, ctx);
  },
};
