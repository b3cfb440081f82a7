import { specResourceKind } from '../../platform/resources';
import { saveCanary } from './canaries';
import { parseCanarySpec } from './spec';

/**
 * `kind: Canary` (canaries.flanksource.com/v1): a file written for canary-checker applies unchanged; its
 * checks of unsupported types or with unsupported fields are reported as warnings by name.
 */
export const canaryKind = specResourceKind({
  kind: 'Canary',
  apiVersions: ['canaries.flanksource.com/v1'],
  problems: (spec, metadata) => parseCanarySpec(spec, { namespace: metadata.namespace }).errors,
  save: saveCanary,
});
