import { KUBE_GROUP, kubeSoftDelete, kubeSpecRows, type KubeKind } from '../../platform/kube-kinds';
import { playbookKind } from './playbooks';

/** Playbook as kubectl reads and writes it (docs/KUBECTL.md). */
export const playbookKubeKind: KubeKind = {
  kind: 'Playbook', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'playbooks', singular: 'playbook', shortNames: ['pb'], namespaced: true, rows: kubeSpecRows('playbooks'), rbac: 'playbooks',
  resourceKind: playbookKind,
  remove: kubeSoftDelete('playbooks'),
};
