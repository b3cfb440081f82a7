import { specResourceKind } from '../../platform/resources';
import { parseTopologySpec } from './spec';
import { saveTopology } from './topologies';

/** `kind: Topology` (canaries.flanksource.com/v1): a canary-checker topology applies unchanged; fields we do not read are warnings. */
export const topologyKind = specResourceKind({
  kind: 'Topology',
  apiVersions: ['canaries.flanksource.com/v1'],
  problems: (spec, metadata) => parseTopologySpec(spec, metadata.name).errors,
  save: saveTopology,
});
