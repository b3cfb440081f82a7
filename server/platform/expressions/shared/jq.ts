import { isRecord } from '../../errors';
import { fail, numberValue, plainValues, type ValueOps } from './values';

/**
 * A subset of jq, shared by CEL's `jq(query, value)` and the Go templates' `jq` / `coll.JQ`: paths (`.a.b`, `.["k"]`, `.[0]`, `.[]`, `?`), pipes, literals,
 * comparisons, `and`/`or`, and the filters length, keys, map, select, add, first, last, not, sort,
 * unique, reverse, min, max, type, tostring, tonumber, empty. Anything else is refused by name
 * (`jq: 'group_by' is not supported yet`), at compile time when the query is a literal.
 * Like gomplate, one output is returned as is, several as a list, none as null.
 */
type Node =
  | { t: 'identity' }
  | { t: 'literal'; value: unknown }
  | { t: 'field'; of: Node; key: string; optional: boolean }
  | { t: 'index'; of: Node; index: Node; optional: boolean }
  | { t: 'iterate'; of: Node; optional: boolean }
  | { t: 'pipe'; left: Node; right: Node }
  | { t: 'binary'; op: string; left: Node; right: Node }
  | { t: 'call'; name: string; arg?: Node };

const FILTERS = new Set(['length', 'keys', 'map', 'select', 'add', 'first', 'last', 'not', 'sort', 'unique', 'reverse', 'min', 'max', 'type', 'tostring', 'tonumber', 'empty']);
const WITH_ARG = new Set(['map', 'select']);

const cache = new Map<string, Node>();

export function parseJq(query: string): Node {
  const cached = cache.get(query);
  if (cached) return cached;
  const tokens = tokenize(query);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const expect = (value: string) => {
    if (next() !== value) fail(`jq: expected '${value}' in ${JSON.stringify(query)}`);
  };

  const pipe = (): Node => {
    let left = or();
    while (peek() === '|') {
      next();
      left = { t: 'pipe', left, right: or() };
    }
    return left;
  };
  /** A left-associative level of `op` over the next tighter level. */
  const logical = (op: 'or' | 'and', operand: () => Node) => (): Node => {
    let left = operand();
    while (peek() === op) {
      next();
      left = { t: 'binary', op, left, right: operand() };
    }
    return left;
  };
  const and = logical('and', () => comparison());
  const or = logical('or', and);
  const comparison = (): Node => {
    const left = postfix();
    const op = peek();
    if (op && ['==', '!=', '<', '<=', '>', '>='].includes(op)) {
      next();
      return { t: 'binary', op, left, right: postfix() };
    }
    return left;
  };
  const suffixes = (start: Node): Node => {
    let node = start;
    for (;;) {
      const token = peek();
      if (token === '[') {
        next();
        if (peek() === ']') {
          next();
          node = { t: 'iterate', of: node, optional: optional() };
        } else {
          const index = pipe();
          expect(']');
          node = { t: 'index', of: node, index, optional: optional() };
        }
      } else if (token === '.' && isName(tokens[i + 1]) ) {
        next();
        node = { t: 'field', of: node, key: next() ?? '', optional: optional() };
      } else if (token === '.' && tokens[i + 1]?.startsWith('"')) {
        next();
        const quoted: unknown = JSON.parse(next() ?? '""');
        node = { t: 'field', of: node, key: String(quoted), optional: optional() };
      } else if (token === '.' && tokens[i + 1] === '[') {
        next();
      } else {
        return node;
      }
    }
  };
  const optional = () => (peek() === '?' ? (next(), true) : false);
  const postfix = (): Node => {
    const token = peek();
    if (token === undefined) return fail(`jq: unexpected end of ${JSON.stringify(query)}`);
    if (token === '.') {
      const after = tokens[i + 1];
      if (isName(after) || after === '[' || after?.startsWith('"')) return suffixes({ t: 'identity' });
      next();
      return suffixes({ t: 'identity' });
    }
    if (token === '(') {
      next();
      const inner = pipe();
      expect(')');
      return suffixes(inner);
    }
    if (token.startsWith('"')) return next(), suffixes({ t: 'literal', value: JSON.parse(token) });
    if (/^-?\d/.test(token)) return next(), { t: 'literal', value: Number(token) };
    if (token === 'true' || token === 'false' || token === 'null') return next(), { t: 'literal', value: JSON.parse(token) };
    if (isName(token)) {
      next();
      if (!FILTERS.has(token)) return fail(`jq: '${token}' is not supported yet`);
      if (WITH_ARG.has(token)) {
        expect('(');
        const arg = pipe();
        expect(')');
        return suffixes({ t: 'call', name: token, arg });
      }
      return suffixes({ t: 'call', name: token });
    }
    return fail(`jq: '${token}' is not supported yet`);
  };

  const node = pipe();
  if (i < tokens.length) fail(`jq: '${tokens[i]}' is not supported yet`);
  if (cache.size > 1000) cache.clear();
  cache.set(query, node);
  return node;
}

function isName(token: string | undefined): boolean {
  return token !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(token);
}

function tokenize(query: string): string[] {
  const out: string[] = [];
  const re = /\s+|("(?:[^"\\]|\\.)*")|(==|!=|<=|>=|[.[\]|(),?<>])|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\S)/gy;
  for (let match = re.exec(query); match && match[0] !== ''; match = re.exec(query)) {
    if (match[5] !== undefined) {
      if (match[5] === '$') fail(`jq: variables ('$') are not supported yet`);
      fail(`jq: '${match[5]}' is not supported yet`);
    }
    const token = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (token !== undefined) out.push(token);
    if (re.lastIndex >= query.length) break;
  }
  return out;
}

function num(value: unknown, ops: ValueOps): number | undefined {
  return ops.isNumber(value) ? Number(numberValue(value)) : undefined;
}

function truthy(value: unknown): boolean {
  return value !== null && value !== undefined && value !== false;
}

function evaluate(node: Node, input: unknown, ops: ValueOps): unknown[] {
  switch (node.t) {
    case 'identity':
      return [input];
    case 'literal':
      return [node.value];
    case 'field':
      return evaluate(node.of, input, ops).flatMap((value) => {
        if (value === null || value === undefined) return [null];
        if (value instanceof Map) return [value.has(node.key) ? value.get(node.key) : null];
        if (isRecord(value)) return [node.key in value ? value[node.key] : null];
        if (node.optional) return [];
        return fail(`jq: cannot index ${Array.isArray(value) ? 'array' : typeof value} with "${node.key}"`);
      });
    case 'index':
      return evaluate(node.of, input, ops).flatMap((value) =>
        evaluate(node.index, input, ops).map((index) => {
          if (value === null || value === undefined) return null;
          const at = num(index, ops);
          if (Array.isArray(value) && at !== undefined) {
            const position = at < 0 ? value.length + at : at;
            return value[position] ?? null;
          }
          if (typeof index === 'string' && isRecord(value)) return value[index] ?? null;
          if (node.optional) return null;
          return fail(`jq: cannot index ${Array.isArray(value) ? 'array' : typeof value} with ${JSON.stringify(String(index))}`);
        }),
      );
    case 'iterate':
      return evaluate(node.of, input, ops).flatMap((value) => {
        if (Array.isArray(value)) return value;
        if (value instanceof Map) return [...value.values()];
        if (isRecord(value)) return Object.values(value);
        if (node.optional) return [];
        return fail(`jq: cannot iterate over ${value === null ? 'null' : typeof value}`);
      });
    case 'pipe':
      return evaluate(node.left, input, ops).flatMap((value) => evaluate(node.right, value, ops));
    case 'binary':
      return evaluate(node.left, input, ops).flatMap((left) =>
        evaluate(node.right, input, ops).map((right) => {
          switch (node.op) {
            case 'and':
              return truthy(left) && truthy(right);
            case 'or':
              return truthy(left) || truthy(right);
            case '==':
              return ops.equals(left, right);
            case '!=':
              return !ops.equals(left, right);
            default: {
              const order = compare(left, right, ops);
              return node.op === '<' ? order < 0 : node.op === '<=' ? order <= 0 : node.op === '>' ? order > 0 : order >= 0;
            }
          }
        }),
      );
    case 'call':
      return call(node, input, ops);
  }
}

/** jq's order: null < false < true < numbers < strings < arrays < objects. */
function compare(a: unknown, b: unknown, ops: ValueOps): number {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : v === false ? 1 : v === true ? 2 : ops.isNumber(v) ? 3 : typeof v === 'string' ? 4 : Array.isArray(v) ? 5 : 6);
  const diff = rank(a) - rank(b);
  if (diff !== 0) return diff;
  if (rank(a) === 3) {
    const x = numberValue(a);
    const y = numberValue(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return 0;
}

function call(node: { name: string; arg?: Node }, input: unknown, ops: ValueOps): unknown[] {
  const list = (): unknown[] => {
    if (Array.isArray(input)) return input;
    return fail(`jq: ${node.name} needs an array, got ${input === null ? 'null' : typeof input}`);
  };
  // The parser gives every filter of WITH_ARG its argument.
  const arg = (): Node => node.arg ?? fail(`jq: ${node.name} needs an argument`);
  switch (node.name) {
    case 'length':
      if (input === null || input === undefined) return [0n];
      if (typeof input === 'string' || Array.isArray(input)) return [BigInt(input.length)];
      if (isRecord(input)) return [BigInt(Object.keys(input).length)];
      if (ops.isNumber(input)) return [Math.abs(Number(numberValue(input)))];
      return fail(`jq: ${typeof input} has no length`);
    case 'keys':
      if (Array.isArray(input)) return [input.map((_, i) => BigInt(i))];
      if (isRecord(input)) return [Object.keys(input).sort()];
      return fail('jq: keys needs an object or array');
    case 'map':
      return [list().flatMap((item) => evaluate(arg(), item, ops))];
    case 'select':
      return evaluate(arg(), input, ops).some(truthy) ? [input] : [];
    case 'add': {
      const items = list();
      if (items.length === 0) return [null];
      return [items.reduce((sum, item) => add(sum, item, ops))];
    }
    case 'first':
      return [list()[0] ?? null];
    case 'last':
      return [list().at(-1) ?? null];
    case 'not':
      return [!truthy(input)];
    case 'sort':
      return [[...list()].sort((a, b) => compare(a, b, ops))];
    case 'unique':
      return [[...list()].sort((a, b) => compare(a, b, ops)).filter((item, i, all) => i === 0 || !ops.equals(item, all[i - 1]))];
    case 'reverse':
      return [[...list()].reverse()];
    case 'min':
      return [list().reduce<unknown>((best, item) => (best === undefined || compare(item, best, ops) < 0 ? item : best), undefined) ?? null];
    case 'max':
      return [list().reduce<unknown>((best, item) => (best === undefined || compare(item, best, ops) > 0 ? item : best), undefined) ?? null];
    case 'type':
      return [input === null || input === undefined ? 'null' : typeof input === 'boolean' ? 'boolean' : ops.isNumber(input) ? 'number' : typeof input === 'string' ? 'string' : Array.isArray(input) ? 'array' : 'object'];
    case 'tostring':
      return [typeof input === 'string' ? input : JSON.stringify(input, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))];
    case 'tonumber':
      return [ops.isNumber(input) ? input : Number(input)];
    case 'empty':
      return [];
    default:
      return fail(`jq: '${node.name}' is not supported yet`);
  }
}

function add(a: unknown, b: unknown, ops: ValueOps): unknown {
  if (a === null || a === undefined) return b;
  if (b === null || b === undefined) return a;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a + b;
  if (ops.isNumber(a) && ops.isNumber(b)) return Number(numberValue(a)) + Number(numberValue(b));
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (isRecord(a) && isRecord(b)) return { ...a, ...b };
  return fail('jq: cannot add these values');
}

/** Every output of a jq query, in order. */
export function jqOutputs(query: string, input: unknown, ops: ValueOps = plainValues): unknown[] {
  return evaluate(parseJq(query), input, ops);
}

/** Runs a jq query: one output as is, several as a list, none as null. */
export function jqQuery(query: string, input: unknown, ops: ValueOps = plainValues): unknown {
  const outputs = jqOutputs(query, input, ops);
  if (outputs.length === 0) return null;
  if (outputs.length === 1) return outputs[0] ?? null;
  return outputs;
}
