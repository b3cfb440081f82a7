/** CEL's `jsonpath(path, value)` is the shared JSONPath subset (see shared/jsonpath.ts). */
export { jsonPath, checkJsonPath } from '../shared/jsonpath';
