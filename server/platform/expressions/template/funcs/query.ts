import { jmesPath } from '../../shared/jmespath';
import { jqOutputs } from '../../shared/jq';
import { jsonPathMatches } from '../../shared/jsonpath';
import { matchLabel } from '../../shared/k8s';
import { func, variadicFunc } from '../define';
import { type GoFunc, isGoMap } from '../kinds';
import { toString } from './conv';

/**
 * gomplate's queries over data (coll/json.go, funcs/coll.go): `jq` / `coll.JQ` and `jsonpath` take the
 * query first and the value last (so `{{ .body | jq ".items[0].name" }}` pipes), and read a text value
 * that holds a JSON object as that object, as json.Unmarshal into map[string]any does (numbers float64).
 * The query languages are shared with CEL: jq's subset (shared/jq.ts), JSONPath (shared/jsonpath.ts: a
 * fast subset, jsonpath-plus for the rest) and JMESPath (shared/jmespath.ts: the jmespath package).
 */
function input(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return isGoMap(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/** gomplate's null answer: a nil result (or its NULL_VALUE marker) becomes the empty string. */
const NULL_VALUE = 'NULL_VALUE';
const orEmpty = (value: unknown): unknown => (value === null || value === undefined || value === NULL_VALUE ? '' : value);

/** jq: one output as is, several (or none) as a list; a null output is "". */
export const jqFunc = func(['string', 'any'], (query, value) => {
  const outputs = jqOutputs(query, input(value));
  return outputs.length === 1 ? orEmpty(outputs[0]) : outputs;
});

/** jsonpath: one match as is, several as a list, none (or a null match) "". */
const jsonpathFunc = func(['string', 'any'], (path, value) => {
  const matches = jsonPathMatches(path, input(value));
  if (matches.length === 0) return '';
  return matches.length === 1 ? orEmpty(matches[0]) : matches;
});

/** jmespath query value: gomplate's coll.JMESPath (a null result is ""). */
const jmespathFunc = func(['string', 'any'], (query, value) => jmesPath(query, value));

/** matchLabel labels key pattern…: each pattern a glob (`*`), `!` negates; a missing key matches only negations. */
const matchLabelFunc = variadicFunc(['map', 'string'], 'string', (labels, key, ...patterns) => {
  const map = new Map<string, string>(Object.entries(labels).filter(([, v]) => v !== undefined).map(([k, v]) => [k, toString(v)] as const));
  return matchLabel(map, key, patterns);
});

export const queryFunctions: Record<string, GoFunc> = {
  jq: jqFunc,
  jsonpath: jsonpathFunc,
  jmespath: jmespathFunc,
  matchLabel: matchLabelFunc,
};
