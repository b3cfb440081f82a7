import { KUBE_GROUP, kubeSpecRows, type KubeKind } from '../../platform/kube-kinds';
import { topologyKind } from './kind';
import { deleteTopology } from './topologies';

/** Topology as kubectl reads and writes it (docs/KUBECTL.md). */
export const topologyKubeKind: KubeKind = {
  kind: 'Topology', group: KUBE_GROUP.canaries, version: 'v1', plural: 'topologies', singular: 'topology', shortNames: ['topo'], namespaced: true, rows: kubeSpecRows('topologies'), rbac: 'topologies',
  resourceKind: topologyKind,
  remove: async (pool, id) => void (await deleteTopology(pool, id)),
};
