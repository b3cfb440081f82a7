import { Environment } from '@marcbachmann/cel-js';
import { parseJq } from './jq';
import { checkJmesPath } from '../shared/jmespath';
import { checkJsonPath } from './jsonpath';
import { parseResourceQuery } from '../shared/match-query';
import { registerJson } from './json';
import { registerK8s } from './k8s';
import { registerLists } from './lists';
import { goRegex, registerStrings } from './strings';
import { Registrar, toStr, isMap, entriesOf, listOf, fail } from './support';
import { registerTime } from './time';

/**
 * The CEL environment users' canary-checker, config-db and Mission Control YAML expects: cel-js's standard
 * library plus cel-go's extensions (strings, lists, math, sets, encoders, optionals) and the Flanksource
 * functions of flanksource/gomplate. Functions we do not have are refused at compile time by name.
 */
export function createCelEnvironment(): { env: Environment; registrar: Registrar } {
  // Variables are whatever a check type exposes (dyn), and a list or map literal may mix value types, as in
  // canary-checker's transforms: [{'name': 'api', 'pass': true}].
  const env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false, enableOptionalTypes: true });
  const registrar = new Registrar(env);
  registerJson(registrar);
  registerStrings(registrar);
  registerLists(registrar);
  registerTime(registrar);
  registerK8s(registrar);
  registerColl(registrar);
  return { env, registrar };
}

/** gomplate's conv and coll namespaces, where they are simple. */
function registerColl(r: Registrar): void {
  const truthy = (value: unknown) => !(value === null || value === undefined || value === false || value === '' || value === 0 || value === 0n || (Array.isArray(value) && value.length === 0) || (isMap(value) && entriesOf(value, 'conv.Default').length === 0));
  r.fn('conv.Default', 2, (fallback: unknown, input: unknown) => (truthy(input) ? input : fallback));
  r.fn('conv.ToString', 1, (value: unknown) => toStr(value), 'string');
  r.fn('conv.Has', 2, (collection: unknown, key: unknown) => (Array.isArray(collection) ? collection.some((item) => toStr(item) === toStr(key)) : isMap(collection) && entriesOf(collection, 'conv.Has').some(([k]) => toStr(k) === toStr(key))), 'bool');
  r.fn('coll.Has', 2, (collection: unknown, key: unknown) => (Array.isArray(collection) ? collection.some((item) => toStr(item) === toStr(key)) : isMap(collection) && entriesOf(collection, 'coll.Has').some(([k]) => toStr(k) === toStr(key))), 'bool');
  const dict = (items: unknown[]) => {
    if (items.length % 2 !== 0) return fail('Dict: expected an even number of items (key, value, …)');
    const out: Record<string, unknown> = {};
    for (let i = 0; i < items.length; i += 2) out[toStr(items[i])] = items[i + 1];
    return out;
  };
  r.fn('conv.Dict', [1, 2, 4, 6, 8], (...args: unknown[]) => dict(args.length === 1 ? listOf(args[0], 'conv.Dict') : args), 'map');
  r.fn('coll.Dict', [1, 2, 4, 6, 8], (...args: unknown[]) => dict(args.length === 1 ? listOf(args[0], 'coll.Dict') : args), 'map');
  const sortedKeys = (map: unknown, fn: string) => entriesOf(map, fn).map(([k]) => k).sort((a, b) => (toStr(a) < toStr(b) ? -1 : toStr(a) > toStr(b) ? 1 : 0));
  r.fn('coll.Keys', 1, (map: unknown) => sortedKeys(map, 'coll.Keys'), 'list');
  r.fn('coll.Values', 1, (map: unknown) => {
    const entries = new Map(entriesOf(map, 'coll.Values'));
    return sortedKeys(map, 'coll.Values').map((key) => entries.get(key));
  }, 'list');
  r.fn('coll.Append', 2, (value: unknown, list: unknown) => [...listOf(list, 'coll.Append'), value], 'list');
  r.fn('coll.Prepend', 2, (value: unknown, list: unknown) => [value, ...listOf(list, 'coll.Prepend')], 'list');
  r.fn('coll.Reverse', 1, (list: unknown) => [...listOf(list, 'coll.Reverse')].reverse(), 'list');
  r.fn('coll.Merge', 2, (a: unknown, b: unknown) => ({ ...Object.fromEntries(entriesOf(b, 'coll.Merge')), ...Object.fromEntries(entriesOf(a, 'coll.Merge')) }), 'map');
}

/**
 * Functions of the Flanksource and cel-go libraries that are not implemented: an expression naming one is
 * refused when it is compiled ("<name> is not supported yet"), never evaluated to a wrong answer.
 */
export const REFUSED_FUNCTIONS: readonly string[] = [
  'CSV',
  'CSVByRow',
  'CSVByColumn',
  'toCSV',
  'data.CSV',
  'data.CSVByRow',
  'data.CSVByColumn',
  'data.ToCSV',
  'f',
  'url',
  'aws.arnToMap',
  'aws.fromAWSMap',
  'arnToMap',
  'fromAWSMap',
  'k8s.neat',
  'k8s.podProperties',
  'k8s.nodeProperties',
  'k8s.labels',
  'k8s.podMaxMemoryBytes',
  'k8s.podMaxCPUMillicores',
  'coll.Sort',
  'coll.Uniq',
  'coll.Flatten',
  'coll.Pick',
  'coll.Omit',
  'coll.JQ',
  'coll.JSONPath',
  'coll.KeyValToMap',
  'coll.MapToKeyVal',
  'test.Assert',
  'test.Fail',
  'test.Required',
  'test.Ternary',
  'test.Kind',
  'test.IsKind',
  '.sortBy',
  '.ip',
  '.cidr',
];

/** Namespaces where a name we do not know is a Flanksource function we lack, not a typo of the user. */
export const FLANKSOURCE_NAMESPACES = new Set(['aws', 'base64', 'coll', 'conv', 'crypto', 'data', 'filepath', 'gcp', 'k8s', 'lists', 'math', 'net', 'random', 'regexp', 'sets', 'sockaddr', 'strings', 'test', 'time', 'uuid']);

interface AstNode {
  op: string;
  args: unknown;
  pos?: number;
  start?: number;
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && 'op' in value && typeof value.op === 'string';
}

/** A problem found in an expression's syntax tree, at an offset. */
export class CelProblem extends Error {
  constructor(
    message: string,
    readonly offset: number | undefined,
  ) {
    super(message);
  }
}

/**
 * What functions exist, for the compile-time check: global names and method names from the environment's
 * definitions plus the namespaced names the registrar made.
 */
export function knownFunctions(env: Environment, registrar: Registrar): { globals: Set<string>; methods: Set<string>; namespaced: Set<string> } {
  const globals = new Set<string>();
  const methods = new Set<string>();
  for (const definition of env.getDefinitions().functions) {
    const match = /^(?:(.+)\.)?(\w+)\(/.exec(definition.signature);
    if (!match?.[2]) continue;
    if (match[1] && !match[1].startsWith('FlanksourceNamespace')) methods.add(match[2]);
    else if (!match[1]) globals.add(match[2]);
  }
  const namespaced = new Set([...registrar.names].filter((name) => !name.startsWith('.') && name.includes('.')));
  return { globals, methods, namespaced };
}

const REFUSED = new Set(REFUSED_FUNCTIONS);

/** Refuses unknown and unsupported functions, and literal jq / JSONPath / JMESPath / regexp arguments that cannot work. */
export function validateAst(root: unknown, known: ReturnType<typeof knownFunctions>): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isNode(value)) return;
    const offset = value.pos ?? value.start;
    if (value.op === 'call' && Array.isArray(value.args)) {
      const [name, args] = value.args as [string, unknown[]];
      if (REFUSED.has(name)) throw new CelProblem(`${name} is not supported yet`, offset);
      if (!known.globals.has(name)) throw new CelProblem(`unknown function ${name}()`, offset);
      checkLiteralArgument(name, args);
    } else if (value.op === 'rcall' && Array.isArray(value.args)) {
      const [name, receiver, args] = value.args as [string, unknown, unknown[]];
      const id = isNode(receiver) && receiver.op === 'id' && typeof receiver.args === 'string' ? receiver.args : undefined;
      const namespace = id !== undefined && (FLANKSOURCE_NAMESPACES.has(id) || known.namespaced.has(`${id}.${name}`)) ? id : undefined;
      const qualified = namespace ? `${namespace}.${name}` : undefined;
      if (qualified && REFUSED.has(qualified)) throw new CelProblem(`${qualified} is not supported yet`, offset);
      if (qualified && known.namespaced.has(qualified)) {
        checkLiteralArgument(qualified, args);
      } else if (namespace && FLANKSOURCE_NAMESPACES.has(namespace) && !known.methods.has(name)) {
        throw new CelProblem(`${qualified} is not supported yet`, offset);
      } else if (REFUSED.has(`.${name}`)) {
        throw new CelProblem(`.${name}() is not supported yet`, offset);
      } else if (!known.methods.has(name) && !(qualified && known.namespaced.has(qualified))) {
        throw new CelProblem(qualified ? `unknown function ${qualified}()` : `unknown function .${name}()`, offset);
      }
      if (!namespace && (name === 'find' || name === 'findAll')) checkLiteralArgument('regexp', args);
    }
    visit(value.args);
  };
  visit(root);
}

function literal(node: unknown): string | undefined {
  return isNode(node) && node.op === 'value' && typeof node.args === 'string' ? node.args : undefined;
}

function checkLiteralArgument(name: string, args: unknown[]): void {
  // matchQuery(resource, 'query'): a literal query that does not parse is refused when compiled.
  const first = name === 'matchQuery' ? args[1] : args[0];
  const text = literal(first);
  if (text === undefined || !isNode(first)) return;
  const offset = first.pos ?? first.start;
  try {
    if (name === 'jq') parseJq(text);
    else if (name === 'jsonpath') checkJsonPath(text);
    else if (name === 'jmespath') checkJmesPath(text);
    else if (name === 'matchQuery') parseResourceQuery(text);
    else if (name === 'regexp' || name.startsWith('regexp.') && name !== 'regexp.QuoteMeta') goRegex(text);
  } catch (error) {
    throw new CelProblem(error instanceof Error ? error.message : String(error), offset);
  }
}
