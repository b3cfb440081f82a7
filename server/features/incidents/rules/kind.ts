import { specResourceKind } from '../../../platform/resources';
import { saveIncidentRule } from './rules';
import { parseRuleSpec } from './spec';

/** `kind: IncidentRule` (mission-control.flanksource.com/v1): `watchkeeper apply -f`, the watched folder and the API. */
export const incidentRuleKind = specResourceKind({
  kind: 'IncidentRule',
  apiVersions: ['mission-control.flanksource.com/v1', 'watchkeeper.dev/v1'],
  problems: (spec) => parseRuleSpec(spec).errors,
  save: saveIncidentRule,
});
