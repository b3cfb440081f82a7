import { inTransaction } from '../../platform/jobs/db';
import { KUBE_GROUP, kubeSpecRows, type KubeKind } from '../../platform/kube-kinds';
import { onViewSaved } from './engine';
import { viewKind } from './views';

/** View as kubectl reads and writes it (docs/KUBECTL.md). */
export const viewKubeKind: KubeKind = {
  kind: 'View', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'views', singular: 'view', shortNames: [], namespaced: true, rows: kubeSpecRows('views'), rbac: 'views',
  resourceKind: viewKind,
  remove: (pool, id) =>
    inTransaction(pool, async (client) => {
      await client.query('UPDATE views SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
      await onViewSaved(client, id); // the engine drops the view's table
    }),
};
