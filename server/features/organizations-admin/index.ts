import type { Feature } from '../../platform/context';
import { inviteMailer } from './invite-mail';
import { organizationsAdminRoutes } from './routes';

export { findOrganization } from './service';

/** Settings → Organizations and its API (hosted mode, docs/HOSTED.md item 6). */
export const organizationsAdminFeature: Feature = {
  name: 'organizations-admin',
  register(app, ctx) {
    organizationsAdminRoutes(app, ctx.pool, inviteMailer(ctx.config, ctx.log));
  },
};
