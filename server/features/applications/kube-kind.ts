import { KUBE_GROUP, kubeSoftDelete, kubeSpecRows, type KubeKind } from '../../platform/kube-kinds';
import { applicationKind } from './applications';

/** Application as kubectl reads and writes it (docs/KUBECTL.md). */
export const applicationKubeKind: KubeKind = {
  kind: 'Application', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'applications', singular: 'application', shortNames: ['app'], namespaced: true, rows: kubeSpecRows('applications'), rbac: 'views',
  resourceKind: applicationKind,
  remove: kubeSoftDelete('applications'),
};
