import { func, variadicFunc } from './define';
import { printV, sprint, sprintf, sprintln } from './fmt';
import { asDuration, FuncError, type GoFunc, GoFuncValue, isTrue, Kind, kindOf, typeName } from './kinds';
import { isPrint } from './strconv';

/**
 * Go's predefined template functions (src/text/template/funcs.go). `and` and `or` are evaluated by the
 * executor (they stop at the deciding argument); their entries here only carry the signature.
 */
type Basic = 'bool' | 'int' | 'float' | 'string' | 'invalid';

function basicKind(value: unknown): Basic {
  switch (kindOf(value)) {
    case Kind.Bool:
      return 'bool';
    case Kind.Int:
    case Kind.Duration:
      return 'int';
    case Kind.Float:
      return 'float';
    case Kind.String:
      return 'string';
    default:
      return 'invalid';
  }
}

function intOf(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  return asDuration(value)?.nanoseconds ?? 0n;
}

/** Go's indirectInterface: a nil interface is no value. */
const indirect = (value: unknown) => (value === null ? undefined : value);

/** The reflect.Kind name of a non-basic value, which decides whether Go can compare two of them. */
function reflectKind(value: unknown): string {
  switch (kindOf(value)) {
    case Kind.Invalid:
    case Kind.Nil:
      return 'invalid';
    case Kind.Map:
      return 'map';
    case Kind.Slice:
      return 'slice';
    case Kind.Time:
      return 'struct';
    case Kind.Func:
      return 'func';
    default:
      return 'ptr';
  }
}

/**
 * One deliberate difference from Go: an int and a float compare by value. Every number in this product's
 * data is a JS number, read as float64, where canary-checker hands templates Go ints (`code`, `exitCode`…):
 * `{{ if eq .code 200 }}` works there, so it must work here. (Go refuses `eq` of a JSON float and an int
 * literal; here that comparison answers instead of failing.)
 */
function mixedNumbers(k1: string, k2: string): boolean {
  return (k1 === 'int' && k2 === 'float') || (k1 === 'float' && k2 === 'int');
}

function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : Number(intOf(value));
}

function eq(first: unknown, ...others: unknown[]): boolean {
  const a = indirect(first);
  if (others.length === 0) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(a);
  for (const other of others) {
    const b = indirect(other);
    const k2 = basicKind(b);
    let truth = false;
    if (mixedNumbers(k1, k2)) {
      truth = numberOf(a) === numberOf(b);
    } else if (k1 !== k2) {
      if (a !== undefined && b !== undefined) throw new FuncError('incompatible types for comparison');
    } else {
      switch (k1) {
        case 'bool':
        case 'string':
        case 'float':
          truth = a === b;
          break;
        case 'int':
          truth = intOf(a) === intOf(b);
          break;
        case 'invalid': {
          const [r1, r2] = [reflectKind(a), reflectKind(b)];
          if (r1 !== r2 && r1 !== 'invalid' && r2 !== 'invalid') {
            throw new FuncError(`non-comparable types ${sprintf('%s', [a])}: ${typeName(a)}, ${typeName(b)}: ${printV(b)}`);
          }
          if (a === undefined || b === undefined) truth = a === b;
          else if (r2 === 'map' || r2 === 'slice' || r2 === 'func') throw new FuncError(`non-comparable type ${sprintf('%s', [b])}: ${typeName(b)}`);
          else if (a instanceof Date && b instanceof Date) truth = a.getTime() === b.getTime();
          else truth = a === b;
        }
      }
    }
    if (truth) return true;
  }
  return false;
}

function lt(first: unknown, second: unknown): boolean {
  const a = indirect(first);
  const b = indirect(second);
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'invalid' || k2 === 'invalid') throw new FuncError('invalid type for comparison');
  if (mixedNumbers(k1, k2)) return numberOf(a) < numberOf(b);
  if (k1 !== k2) throw new FuncError('incompatible types for comparison');
  switch (k1) {
    case 'bool':
      throw new FuncError('invalid type for comparison');
    case 'int':
      return intOf(a) < intOf(b);
    case 'float':
      return typeof a === 'number' && typeof b === 'number' && a < b;
    case 'string':
      return typeof a === 'string' && typeof b === 'string' && utf8Less(a, b);
  }
}

/** Go orders strings by their UTF-8 bytes, which is code point order (not UTF-16 unit order). */
function utf8Less(a: string, b: string): boolean {
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;
}

function le(a: unknown, b: unknown): boolean {
  return lt(a, b) || eq(a, b);
}

/** Go's indexArg, then reflect's Index: an index past the end is indexArg's error, one at the end reflect's panic. */
function indexArg(index: unknown, length: number, what: 'slice' | 'string'): number {
  const value = indirect(index);
  if (value === undefined) throw new FuncError('cannot index slice/array with nil');
  const kind = kindOf(value);
  if (kind !== Kind.Int && kind !== Kind.Duration) throw new FuncError(`cannot index slice/array with type ${typeName(value)}`);
  const x = intOf(value);
  if (x < 0n || x > BigInt(length)) throw new FuncError(`index out of range: ${x}`);
  if (x === BigInt(length)) throw new FuncError(`reflect: ${what} index out of range`);
  return Number(x);
}

function index(item: unknown, ...indexes: unknown[]): unknown {
  let current: unknown = indirect(item);
  if (current === undefined) throw new FuncError('index of untyped nil');
  for (const key of indexes) {
    if (current === null || current === undefined) throw new FuncError('index of nil pointer');
    if (typeof current === 'string') {
      const bytes: Buffer = Buffer.from(current);
      current = BigInt(bytes[indexArg(key, bytes.length, 'string')] ?? 0);
    } else if (Array.isArray(current)) {
      current = current[indexArg(key, current.length, 'slice')];
    } else if (kindOf(current) === Kind.Map && typeof current === 'object') {
      const name = indirect(key);
      if (name === undefined) throw new FuncError('value is nil; should be of type string');
      if (typeof name !== 'string') throw new FuncError(`value has type ${typeName(name)}; should be string`);
      current = Object.hasOwn(current, name) ? (Reflect.get(current, name) ?? null) : null;
    } else {
      throw new FuncError(`can't index item of type ${typeName(current)}`);
    }
  }
  return current;
}

function length(item: unknown): bigint {
  if (item === null) throw new FuncError('len of nil pointer');
  if (typeof item === 'string') return BigInt(Buffer.byteLength(item));
  if (Array.isArray(item)) return BigInt(item.length);
  if (kindOf(item) === Kind.Map && typeof item === 'object') return BigInt(Object.keys(item).length);
  if (item === undefined) throw new FuncError('reflect: call of reflect.Value.Type on zero Value');
  throw new FuncError(`len of type ${typeName(item)}`);
}

function call(fn: unknown, ...args: unknown[]): unknown {
  const target = indirect(fn);
  if (target === undefined) throw new FuncError('call of nil');
  if (!(target instanceof GoFuncValue)) throw new FuncError(`non-function of type ${typeName(target)}`);
  return target.func.call(args);
}

/** Go's evalArgs for html, js and urlquery: one string as is, else Sprint with "<no value>" for nil. */
function evalArgs(args: unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((arg) => (arg === undefined || arg === null ? '<no value>' : arg)));
}

const htmlEscapes: Record<string, string> = { '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function htmlEscape(text: string): string {
  return text.replace(/[\0"'&<>]/g, (char) => htmlEscapes[char] ?? char);
}

const jsEscapes: Record<string, string> = { '\\': '\\\\', "'": "\\'", '"': '\\"', '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', '=': '\\u003D' };

export function jsEscape(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (Object.hasOwn(jsEscapes, char)) out += jsEscapes[char];
    else if (code < 0x20) out += `\\u00${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (code < 0x80 || isPrint(char)) out += char;
    else out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/** url.QueryEscape: unreserved bytes kept, space as +, the rest as %XX. */
export function queryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(char)) out += char;
    else if (char === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export const builtins: Record<string, GoFunc> = {
  and: variadicFunc(['value'], 'value', () => undefined),
  or: variadicFunc(['value'], 'value', () => undefined),
  not: func(['value'], (value) => !isTrue(value)),
  call: variadicFunc(['value'], 'value', call),
  html: variadicFunc([], 'any', (...args) => htmlEscape(evalArgs(args))),
  js: variadicFunc([], 'any', (...args) => jsEscape(evalArgs(args))),
  urlquery: variadicFunc([], 'any', (...args) => queryEscape(evalArgs(args))),
  index: variadicFunc(['value'], 'value', index),
  len: func(['value'], length),
  print: variadicFunc([], 'any', (...args) => sprint(args)),
  println: variadicFunc([], 'any', (...args) => sprintln(args)),
  printf: variadicFunc(['string'], 'any', (format, ...args) => sprintf(format, args)),
  eq: variadicFunc(['value'], 'value', eq),
  ne: func(['value', 'value'], (a, b) => !eq(a, b)),
  lt: func(['value', 'value'], lt),
  le: func(['value', 'value'], le),
  gt: func(['value', 'value'], (a, b) => !le(a, b)),
  ge: func(['value', 'value'], (a, b) => !lt(a, b)),
};

