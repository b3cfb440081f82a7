import type { Feature } from '../../platform/context';
import { registerViewEngine } from './engine';
import { viewRoutes } from './routes';
import { readableViewIds } from './engine/access';
import { viewKind, viewWriteHook } from './views';
import { viewKubeKind } from './kube-kind';

// What other features (MCP) use of views: the spec check, reading a view's rows under the caller's access.
export { mayReadView } from './engine/access';
export { columnsOf, loadView, type ViewRow } from './engine/refresh';
export { answerView, tableRows, variableSpecs } from './engine/service';
export { storedColumns } from './engine/table';
export { VariableProblem } from './engine/variables';
export { checkViewSpec } from './spec';

/**
 * Views (spec §2 /views, /view/{namespace}/{name}, /settings/views; §3 View; §6 views; §7 Views;
 * docs/RESOURCES.md#view): the kind `View` and its editor API. The engine (./engine) adds the rows.
 */
export const viewsFeature: Feature = {
  name: 'views',
  kinds: [viewKind],
  kubeKinds: [viewKubeKind],
  postgrestHooks: { afterWrite: { views: viewWriteHook }, rowScope: { view: readableViewIds } },
  async register(app, ctx) {
    await viewRoutes(app, ctx);
    registerViewEngine(app, ctx);
  },
};
