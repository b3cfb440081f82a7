import { KUBE_GROUP, kubeSoftDelete, kubeSpecRows, kubeText, type KubeKind } from '../../platform/kube-kinds';
import { pluginKind } from './plugin-kind';

/** Plugin as kubectl reads and writes it: stored, never run (docs/RESOURCES.md "Plugin"). */
export const pluginKubeKind: KubeKind = {
  kind: 'Plugin', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'plugins', singular: 'plugin', shortNames: [], namespaced: true,
  rows: kubeSpecRows('plugins'),
  rbac: 'rbac',
  resourceKind: pluginKind,
  columns: [{ name: 'Source', description: 'where Mission Control would install it from', cell: (row) => kubeText(row.spec?.source ?? row.spec?.address) }],
  remove: kubeSoftDelete('plugins'),
};
