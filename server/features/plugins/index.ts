import type { Feature } from '../../platform/context';
import { pluginKind } from './plugin-kind';
import { pluginKubeKind } from './kube-kind';

export { pluginKind, PLUGIN_NOT_RUN } from './plugin-kind';

/**
 * Mission Control's plugins (kind Plugin): stored as applied and listed through /api/db and kubectl; none is
 * run, and the console has no page or menu entry for them (docs/RESOURCES.md "Plugin").
 */
export const pluginsFeature: Feature = {
  name: 'plugins',
  kinds: [pluginKind],
  kubeKinds: [pluginKubeKind],
  register() {
    // No routes: plugins are read through /api/db (relation `plugins`) and the Kubernetes-style API.
  },
};
