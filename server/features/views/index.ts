import type { Feature } from '../../platform/context';
import { registerViewEngine } from './engine';
import { viewRoutes } from './routes';
import { viewKind } from './views';

/**
 * Views (spec §2 /views, /view/{namespace}/{name}, /settings/views; §3 View; §6 views; §7 Views;
 * docs/RESOURCES.md#view): the kind `View` and its editor API. The engine (./engine) adds the rows.
 */
export const viewsFeature: Feature = {
  name: 'views',
  kinds: [viewKind],
  async register(app, ctx) {
    await viewRoutes(app, ctx);
    registerViewEngine(app, ctx);
  },
};
