import { specRowKind } from '../../../platform/spec-rows';
import { INCIDENT_RULES } from './rules';

/** `kind: IncidentRule` (mission-control.flanksource.com/v1): `watchkeeper apply -f`, the watched folder and the API. */
export const incidentRuleKind = specRowKind(INCIDENT_RULES, {
  kind: 'IncidentRule',
  apiVersions: ['mission-control.flanksource.com/v1', 'watchkeeper.dev/v1'],
});
