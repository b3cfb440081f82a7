import { jqQuery as runJq, parseJq } from '../shared/jq';
import type { ValueOps } from '../shared/values';
import { celEquals, isNumber, toStr } from './support';

/** CEL's values as the shared jq, semver and Kubernetes functions read them (uint, timestamps, bytes…). */
export const celValues: ValueOps = { isNumber, equals: celEquals, text: toStr };

export { parseJq };

/** CEL's `jq(query, value)`: the shared jq subset over CEL values (see shared/jq.ts). */
export function jqQuery(query: string, input: unknown): unknown {
  return runJq(query, input, celValues);
}
