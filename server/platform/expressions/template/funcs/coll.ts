import { anyArgs, func, variadicFunc } from '../define';
import { printV } from '../fmt';
import { FuncError, type GoFunc, type GoMap, GoStruct, isGoMap, isTrue, kindOf, mapKeys, typeName } from '../kinds';
import { parseGoFloat, parseGoInt } from '../strconv';
import { parseBool, toBool, toFloat64, toInt64, toString } from './conv';
import { jqFunc } from './query';
import { urlStruct } from './url';

/**
 * gomplate's coll and conv namespaces (flanksource/gomplate funcs/coll.go, funcs/conv.go, coll/coll.go)
 * and their top-level names: has, slice, dict, keys, values, append, prepend, uniq, reverse, merge,
 * sort, flatten, join, default, bool, urlParse.
 */

/** Go's reflect.DeepEqual over template values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  if (isGoMap(a) && isGoMap(b)) {
    const keys = mapKeys(a);
    return keys.length === mapKeys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return false;
}

export function has(value: unknown, key: string): boolean {
  if (isGoMap(value)) return Object.hasOwn(value, key) && value[key] !== undefined;
  if (Array.isArray(value)) return value.some((item) => deepEqual(item, key));
  return false;
}

export function dict(args: unknown[]): GoMap {
  const out: GoMap = {};
  for (let index = 0; index < args.length; index += 2) {
    const key = toString(args[index]);
    out[key] = index + 1 < args.length ? (args[index + 1] ?? null) : '';
  }
  return out;
}

function list(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new FuncError(`${what}: expected an array or slice, but got ${value === null || value === undefined ? '<nil>' : typeName(value)}`);
}

function mergeValues(defaults: GoMap, overrides: GoMap): GoMap {
  const out: GoMap = { ...defaults };
  for (const [key, value] of Object.entries(overrides)) {
    const current = out[key];
    out[key] = Object.hasOwn(out, key) && isGoMap(value) && isGoMap(current) ? mergeValues(current, value) : value;
  }
  return out;
}

/** coll.Sort's lessThan: numbers and strings by value, maps by one key's value; anything else is "not less". */
function lessThan(key: string, left: unknown, right: unknown): boolean {
  if (typeof left === 'bigint' && typeof right === 'bigint') return left < right;
  if (typeof left === 'number' && typeof right === 'number') return left < right;
  if (typeof left === 'string' && typeof right === 'string') return Buffer.compare(Buffer.from(left), Buffer.from(right)) < 0;
  if (isGoMap(left) && isGoMap(right)) {
    if (!Object.hasOwn(left, key)) return false;
    return lessThan('', left[key], right[key]);
  }
  return false;
}

export function sortList(key: string, value: unknown): unknown[] | null {
  if (value === null || value === undefined) return null;
  const items = list(value, 'sort');
  const first = items[0];
  if (!items.every((item) => kindOf(item) === kindOf(first))) return items;
  return [...items].sort((a, b) => (lessThan(key, a, b) ? -1 : lessThan(key, b, a) ? 1 : 0));
}

function flatten(value: unknown, depth: number): unknown[] {
  const items = list(value, 'flatten');
  if (depth === 0) return [...items];
  const out: unknown[] = [];
  for (const item of items) {
    if (Array.isArray(item)) out.push(...flatten(item, depth - 1));
    else out.push(item);
  }
  return out;
}

function pickOmit(args: unknown[]): [GoMap, string[]] {
  if (args.length <= 1) throw new FuncError(`wrong number of args: wanted 2 or more, got ${args.length}`);
  const map = args[args.length - 1];
  if (!isGoMap(map)) throw new FuncError(`wrong map type: must be map[string]interface{}, got ${typeName(map)}`);
  const keys = args.slice(0, -1).map((key) => {
    if (typeof key !== 'string') throw new FuncError(`wrong key type: must be string, got ${typeName(key)}`);
    return key;
  });
  return [map, keys];
}

export function join(value: unknown, sep: string): string {
  if (!Array.isArray(value)) throw new FuncError(`input to Join must be an array: value of type ${typeName(value)} is not an array or slice`);
  return value.map(toString).join(sep);
}

/** gomplate's default: the input when it is true as Go's if sees it, else the default. */
export function defaultOf(fallback: unknown, value: unknown): unknown {
  return isTrue(value) ? value : fallback;
}

const keys = func(['map'], (map) => mapKeys(map));
const values = func(['map'], (map) => mapKeys(map).map((key) => map[key] ?? null));
const slice = anyArgs((args) => args.map((item) => item ?? null));
const hasFunc = func(['any', 'string'], has);
const dictFunc = anyArgs(dict);
const append = func(['any', 'any'], (value, items) => [...list(items, 'append'), value]);
const prepend = func(['any', 'any'], (value, items) => [value, ...list(items, 'prepend')]);
const uniq = func(['any'], (items) => {
  const out: unknown[] = [];
  for (const item of list(items, 'uniq')) if (!out.some((seen) => deepEqual(seen, item))) out.push(item);
  return out;
});
const reverse = func(['any'], (items) => [...list(items, 'reverse')].reverse());
const merge = variadicFunc(['map'], 'map', (dst, ...sources) => sources.reduce((merged: GoMap, source) => mergeValues(source, merged), dst));
const sort = anyArgs((args) => {
  if (args.length === 0 || args.length > 2) throw new FuncError(`wrong number of args: wanted 1 or 2, got ${args.length}`);
  return args.length === 1 ? sortList('', args[0]) : sortList(toString(args[0]), args[1]);
});
const flattenFunc = anyArgs((args) => {
  if (args.length === 0 || args.length > 2) throw new FuncError(`wrong number of args: wanted 1 or 2, got ${args.length}`);
  return args.length === 1 ? flatten(args[0], -1) : flatten(args[1], Number(toInt64(args[0])));
});

export const collNamespace = new GoStruct('*funcs.CollFuncs', {}, {
  Slice: slice,
  Has: hasFunc,
  Dict: dictFunc,
  Keys: keys,
  Values: values,
  Append: append,
  Prepend: prepend,
  Uniq: uniq,
  Reverse: reverse,
  Merge: merge,
  Sort: sort,
  Flatten: flattenFunc,
  JQ: jqFunc,
  Pick: anyArgs((args) => {
    const [map, wanted] = pickOmit(args);
    return Object.fromEntries(Object.entries(map).filter(([key]) => wanted.includes(key)));
  }),
  Omit: anyArgs((args) => {
    const [map, unwanted] = pickOmit(args);
    return Object.fromEntries(Object.entries(map).filter(([key]) => !unwanted.includes(key)));
  }),
});

const joinFunc = func(['any', 'string'], join);
const defaultFunc = func(['any', 'any'], defaultOf);
const boolFunc = func(['any'], (value) => parseBool(toString(value)) ?? false);
const urlParse = func(['any'], (value) => urlStruct(toString(value)));

function mustParse<T>(value: T | undefined, zero: T): T {
  return value === undefined ? zero : value;
}

export const convNamespace = new GoStruct('*funcs.ConvFuncs', {}, {
  Bool: boolFunc,
  ToBool: func(['any'], toBool),
  ToBools: anyArgs((args) => args.map(toBool)),
  Slice: slice,
  Join: joinFunc,
  Has: hasFunc,
  ParseInt: func(['any', 'int', 'int'], (value, base) => mustParse(parseInteger(toString(value), Number(base)), 0n)),
  ParseFloat: func(['any', 'int'], (value) => mustParse(parseGoFloat(toString(value)), 0)),
  ParseUint: func(['any', 'int', 'int'], (value, base) => {
    const parsed = parseInteger(toString(value), Number(base));
    return parsed === undefined || parsed < 0n ? 0n : parsed;
  }),
  Atoi: func(['any'], (value) => {
    const text = toString(value);
    return /^[+-]?\d+$/.test(text) ? mustParse(parseGoInt(text.replace(/^([+-]?)0+(?=\d)/, '$1')), 0n) : 0n;
  }),
  URL: urlParse,
  ToInt64: func(['any'], toInt64),
  ToInt: func(['any'], toInt64),
  ToInt64s: anyArgs((args) => args.map(toInt64)),
  ToInts: anyArgs((args) => args.map(toInt64)),
  ToFloat64: func(['any'], toFloat64),
  ToFloat64s: anyArgs((args) => args.map(toFloat64)),
  ToString: func(['any'], toString),
  ToStrings: anyArgs((args) => args.map(toString)),
  Default: defaultFunc,
  Dict: dictFunc,
});

/** strconv.ParseInt(s, base, 64); base 0 reads the prefix. */
function parseInteger(text: string, base: number): bigint | undefined {
  if (base === 0) return parseGoInt(text);
  const negative = text.startsWith('-');
  const digits = text.replace(/^[+-]/, '');
  if (digits === '' || base < 2 || base > 36) return undefined;
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
  let value = 0n;
  for (const char of digits.toLowerCase()) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) return undefined;
    value = value * BigInt(base) + BigInt(digit);
  }
  return negative ? -value : value;
}

export const collFunctions: Record<string, GoFunc> = {
  coll: func([], () => collNamespace),
  conv: func([], () => convNamespace),
  has: hasFunc,
  slice,
  dict: dictFunc,
  keys,
  values,
  append,
  prepend,
  uniq,
  reverse,
  merge,
  sort,
  flatten: flattenFunc,
  join: joinFunc,
  default: defaultFunc,
  bool: boolFunc,
  urlParse,
  mapToKeyVal: func(['map'], (map) => mapKeys(map).map((key) => `${key}=${printV(map[key] ?? null)}`).join(',')),
  keyValToMap: func(['string'], (text) => {
    const out: GoMap = {};
    for (const pair of text.split(',')) {
      const parts = pair.trim().split('=');
      if (parts.length !== 2) throw new FuncError('invalid input string');
      out[parts[0] ?? ''] = parts[1] ?? '';
    }
    return out;
  }),
};

