import { KUBE_GROUP, kubeSoftDelete, kubeSpecRows, type KubeKind } from '../../../platform/kube-kinds';
import { incidentRuleKind } from './kind';

/** IncidentRule as kubectl reads and writes it (docs/KUBECTL.md). */
export const incidentRuleKubeKind: KubeKind = {
  kind: 'IncidentRule', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'incidentrules', singular: 'incidentrule', shortNames: ['ir'], namespaced: true, rows: kubeSpecRows('incident_rules'), rbac: 'database',
  resourceKind: incidentRuleKind,
  remove: kubeSoftDelete('incident_rules'),
};
