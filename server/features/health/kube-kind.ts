import { KUBE_GROUP, kubeSpecRows, type KubeKind } from '../../platform/kube-kinds';
import { deleteCanary } from './canaries';
import { canaryKind } from './canary-kind';

/** Canary as kubectl reads and writes it (docs/KUBECTL.md). */
export const canaryKubeKind: KubeKind = {
  kind: 'Canary', group: KUBE_GROUP.canaries, version: 'v1', plural: 'canaries', singular: 'canary', shortNames: [], namespaced: true, rows: kubeSpecRows('canaries'), rbac: 'canaries',
  resourceKind: canaryKind,
  remove: async (pool, id) => void (await deleteCanary(pool, id)),
};
