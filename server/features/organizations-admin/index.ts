import type { Feature } from '../../platform/context';
import { organizationsAdminRoutes } from './routes';

/** Settings → Organizations and its API (hosted mode, docs/HOSTED.md item 6). */
export const organizationsAdminFeature: Feature = {
  name: 'organizations-admin',
  register(app, ctx) {
    organizationsAdminRoutes(app, ctx.pool);
  },
};
