import { createHash, randomUUID } from 'node:crypto';
import posix from 'node:path/posix';
import { anyArgs, func, variadicFunc } from '../define';
import { FuncError, type GoFunc, GoStruct, Kind, kindOf } from '../kinds';
import { parseGoFloat, parseGoInt } from '../strconv';
import { toBool, toFloat64, toInt64, toString } from './conv';
import { netNamespace, randomNamespace } from './random-net';
import { goRegexp } from './regexp';

/**
 * gomplate's smaller namespaces (flanksource/gomplate funcs/{test,math,base64,regexp,crypto,uuid,
 * filepath,path}.go; random and net in ./random-net.ts) and their top-level names: assert, fail, required, ternary, kind, isKind, add, sub,
 * mul, div, rem, pow, seq.
 */

// --- test ---------------------------------------------------------------------------------------

/** reflect.Kind's name of a value as gomplate's `kind` prints it. */
function reflectKindName(value: unknown): string {
  switch (kindOf(value)) {
    case Kind.Invalid:
    case Kind.Nil:
      return 'invalid';
    case Kind.String:
      return 'string';
    case Kind.Float:
      return 'float64';
    case Kind.Int:
      return 'int';
    case Kind.Duration:
      return 'int64';
    case Kind.Bool:
      return 'bool';
    case Kind.Slice:
      return 'slice';
    case Kind.Map:
      return 'map';
    case Kind.Time:
      return 'struct';
    case Kind.Struct:
    case Kind.Func:
      return 'ptr';
  }
}

function required(message: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') {
    throw new FuncError(message === '' ? 'can not render template: a required value was not set' : message);
  }
  return value;
}

const assert = anyArgs((args) => {
  const input = toBool(args[args.length - 1]);
  if (args.length === 1 || args.length === 2) {
    const message = args.length === 2 ? args[0] : '';
    if (typeof message !== 'string') throw new FuncError(`at <1>: expected string; found ${reflectKindName(message)}`);
    if (!input) throw new FuncError(message === '' ? 'assertion failed' : `assertion failed: ${message}`);
    return '';
  }
  throw new FuncError(`wrong number of args: want 1 or 2, got ${args.length}`);
});

const fail = anyArgs((args) => {
  if (args.length === 0) throw new FuncError('template generation failed');
  if (args.length === 1) {
    const message = toString(args[0]);
    throw new FuncError(message === '' ? 'template generation failed' : `template generation failed: ${message}`);
  }
  throw new FuncError(`wrong number of args: want 0 or 1, got ${args.length}`);
});

const requiredFunc = anyArgs((args) => {
  if (args.length === 1) return required('', args[0]);
  if (args.length === 2) {
    if (typeof args[0] !== 'string') throw new FuncError(`at <1>: expected string; found ${reflectKindName(args[0])}`);
    return required(args[0], args[1]);
  }
  throw new FuncError(`wrong number of args: want 1 or 2, got ${args.length}`);
});

const ternary = func(['any', 'any', 'any'], (yes, no, condition) => (toBool(condition) ? yes : no));
const kind = func(['any'], reflectKindName);
const isKind = func(['string', 'any'], (wanted, value) => {
  const actual = reflectKindName(value);
  if (wanted === 'number') return ['int', 'int64', 'float64'].includes(actual);
  return actual === wanted;
});

export const testNamespace = new GoStruct('*funcs.TestFuncs', {}, {
  Assert: assert,
  Fail: fail,
  Required: requiredFunc,
  Ternary: ternary,
  Kind: kind,
  IsKind: isKind,
});

// --- math ---------------------------------------------------------------------------------------

function isInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value === 'string') return parseGoInt(value) !== undefined;
  return false;
}

function isFloat(value: unknown): boolean {
  if (typeof value === 'number') return true;
  if (typeof value === 'string') return parseGoFloat(value) !== undefined && !isInt(value);
  return false;
}

const anyFloat = (values: unknown[]) => values.some(isFloat);
const int64 = (value: bigint) => BigInt.asIntN(64, value);

const add = anyArgs((args) => (anyFloat(args) ? args.reduce((sum: number, value) => sum + toFloat64(value), 0) : int64(args.reduce((sum: bigint, value) => sum + toInt64(value), 0n))));
const mul = anyArgs((args) => (anyFloat(args) ? args.reduce((product: number, value) => product * toFloat64(value), 1) : int64(args.reduce((product: bigint, value) => product * toInt64(value), 1n))));
const sub = func(['any', 'any'], (a, b) => (anyFloat([a, b]) ? toFloat64(a) - toFloat64(b) : int64(toInt64(a) - toInt64(b))));
const div = func(['any', 'any'], (a, b) => {
  const divisor = toFloat64(b);
  if (divisor === 0) throw new FuncError('error: division by 0');
  return toFloat64(a) / divisor;
});
const rem = func(['any', 'any'], (a, b) => {
  const divisor = toInt64(b);
  if (divisor === 0n) throw new FuncError('runtime error: integer divide by zero');
  return toInt64(a) % divisor;
});
const pow = func(['any', 'any'], (a, b) => {
  const result = toFloat64(a) ** toFloat64(b);
  return isFloat(a) ? result : toInt64(result);
});
const seq = anyArgs((args) => {
  if (args.length === 0) throw new FuncError("math.Seq must be given at least an 'end' value");
  let [start, end, step] = [1n, 0n, 1n];
  if (args.length === 1) end = toInt64(args[0]);
  else {
    start = toInt64(args[0]);
    end = toInt64(args[1]);
    if (args.length >= 3) step = toInt64(args[2]);
  }
  // gomplate's math.Seq: the step's sign follows the direction; a zero step gives the start alone.
  if (start > end && step > 0n) step = -step;
  if (start < end && step < 0n) step = -step;
  if (step === 0n) return [start];
  const out: bigint[] = [];
  for (let value = start; step > 0n ? value <= end : value >= end; value += step) {
    out.push(value);
    if (out.length > 1_000_000) throw new FuncError('math.Seq: sequence too long');
  }
  return out;
});
const extreme = (pick: 'max' | 'min') =>
  variadicFunc(['any'], 'any', (first, ...rest) => {
    if (isFloat(first) || anyFloat(rest)) return rest.map(toFloat64).reduce((m, n) => Math[pick](m, n), toFloat64(first));
    return rest.map(toInt64).reduce((m, n) => ((pick === 'max' ? n > m : n < m) ? n : m), toInt64(first));
  });

export const mathNamespace = new GoStruct('*funcs.MathFuncs', {}, {
  IsInt: func(['any'], isInt),
  IsFloat: func(['any'], isFloat),
  IsNum: func(['any'], (value) => isInt(value) || isFloat(value)),
  Abs: func(['any'], (value) => {
    const abs = Math.abs(toFloat64(value));
    return isInt(value) ? toInt64(abs) : abs;
  }),
  Add: add,
  Mul: mul,
  Sub: sub,
  Div: div,
  Rem: rem,
  Pow: pow,
  Seq: seq,
  Max: extreme('max'),
  Min: extreme('min'),
  Ceil: func(['any'], (value) => Math.ceil(toFloat64(value))),
  Floor: func(['any'], (value) => Math.floor(toFloat64(value))),
  Round: func(['any'], (value) => {
    const number = toFloat64(value);
    return number < 0 ? -Math.round(-number) : Math.round(number);
  }),
});

// --- base64, crypto, uuid -----------------------------------------------------------------------

function base64Decode(text: string): string {
  const clean = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw new FuncError('illegal base64 data at input byte 0');
  return Buffer.from(clean, 'base64').toString('latin1');
}

export const base64Namespace = new GoStruct('*funcs.Base64Funcs', {}, {
  Encode: func(['any'], (value) => Buffer.from(value === null || value === undefined ? '' : toString(value)).toString('base64')),
  Decode: func(['any'], (value) => Buffer.from(base64Decode(toString(value)), 'latin1').toString('utf8')),
  DecodeBytes: func(['any'], (value) => [...Buffer.from(base64Decode(toString(value)), 'latin1')].map((byte) => BigInt(byte))),
});

const digest = (algorithm: string) => func(['any'], (value) => createHash(algorithm).update(toString(value)).digest('hex'));

export const cryptoNamespace = new GoStruct('*funcs.CryptoFuncs', {}, {
  SHA1: digest('sha1'),
  SHA224: digest('sha224'),
  SHA256: digest('sha256'),
  SHA384: digest('sha384'),
  SHA512: digest('sha512'),
  SHA512_224: digest('sha512-224'),
  SHA512_256: digest('sha512-256'),
});

const UUID = /^(?:urn:uuid:)?\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

export const uuidNamespace = new GoStruct('*funcs.UUIDFuncs', {}, {
  V4: func([], () => randomUUID()),
  Nil: func([], () => '00000000-0000-0000-0000-000000000000'),
  IsValid: func(['any'], (value) => UUID.test(toString(value))),
});

// --- regexp -------------------------------------------------------------------------------------

/** Go's Expand templates ($1, ${1}, ${name}) as JS replacement patterns ($1, $<name>). */
function goReplacement(replacement: string): string {
  return replacement.replace(/\$(\{(\w+)\}|(\w+)|\$)/g, (_match, _whole: string, braced?: string, bare?: string) => {
    const name = braced ?? bare;
    if (name === undefined) return '$$';
    return /^\d+$/.test(name) ? `$${name}` : `$<${name}>`;
  });
}

function findAll(pattern: string, n: number, input: string): string[] {
  const matches = [...input.matchAll(goRegexp(pattern, true))].map((match) => match[0]);
  return n < 0 ? matches : matches.slice(0, n);
}

function regexpSplit(pattern: string, n: number, input: string): string[] {
  if (n === 0) return [];
  const parts: string[] = [];
  let last = 0;
  for (const match of input.matchAll(goRegexp(pattern, true))) {
    if (n > 0 && parts.length === n - 1) break;
    const at = match.index ?? 0;
    if (match[0] === '' && (at === 0 || at === input.length)) continue;
    parts.push(input.slice(last, at));
    last = at + match[0].length;
  }
  parts.push(input.slice(last));
  return parts;
}

/** FindAll's and Split's arguments: pattern [n] input. */
const patternArgs = (args: unknown[]): [string, number, string] => {
  if (args.length === 2) return [toString(args[0]), -1, toString(args[1])];
  if (args.length === 3) return [toString(args[0]), Number(toInt64(args[1])), toString(args[2])];
  throw new FuncError(`wrong number of args: want 2 or 3, got ${args.length}`);
};

export const regexpNamespace = new GoStruct('*funcs.ReFuncs', {}, {
  Find: func(['any', 'any'], (re, input) => goRegexp(toString(re)).exec(toString(input))?.[0] ?? ''),
  FindAll: anyArgs((args) => findAll(...patternArgs(args))),
  Match: func(['any', 'any'], (re, input) => goRegexp(toString(re)).test(toString(input))),
  QuoteMeta: func(['any'], (value) => toString(value).replace(/[\\.+*?()|[\]{}^$]/g, '\\$&')),
  Replace: func(['any', 'any', 'any'], (re, replacement, input) => toString(input).replace(goRegexp(toString(re), true), goReplacement(toString(replacement)))),
  ReplaceLiteral: func(['any', 'any', 'any'], (re, replacement, input) => toString(input).replace(goRegexp(toString(re), true), () => toString(replacement))),
  Split: anyArgs((args) => regexpSplit(...patternArgs(args))),
});

// --- filepath, path -----------------------------------------------------------------------------

function pathNamespace(typeName: string): GoStruct {
  const base = (text: string) => {
    if (text === '') return '.';
    const trimmed = text.replace(/\/+$/, '');
    return trimmed === '' ? '/' : posix.basename(trimmed);
  };
  const dir = (text: string) => {
    const cut = text.slice(0, text.lastIndexOf('/') + 1);
    const cleaned = posix.normalize(cut === '' ? '.' : cut);
    return cleaned.length > 1 ? cleaned.replace(/\/$/, '') : cleaned;
  };
  const clean = (text: string) => {
    if (text === '') return '.';
    const cleaned = posix.normalize(text);
    return cleaned.length > 1 ? cleaned.replace(/\/$/, '') : cleaned;
  };
  return new GoStruct(typeName, {}, {
    Base: func(['any'], (value) => base(toString(value))),
    Dir: func(['any'], (value) => dir(toString(value))),
    Clean: func(['any'], (value) => clean(toString(value))),
    Ext: func(['any'], (value) => {
      const text = toString(value);
      const match = /\.[^./]*$/.exec(text);
      return match ? match[0] : '';
    }),
    IsAbs: func(['any'], (value) => toString(value).startsWith('/')),
    Join: anyArgs((args) => {
      const parts = args.map(toString).filter((part) => part !== '');
      return parts.length === 0 ? '' : clean(parts.join('/'));
    }),
    Split: func(['any'], (value) => {
      const text = toString(value);
      const at = text.lastIndexOf('/') + 1;
      return [text.slice(0, at), text.slice(at)];
    }),
  });
}

export const miscFunctions: Record<string, GoFunc> = {
  test: func([], () => testNamespace),
  assert,
  fail,
  required: requiredFunc,
  ternary,
  kind,
  isKind,
  math: func([], () => mathNamespace),
  add,
  sub,
  mul,
  div,
  rem,
  pow,
  seq,
  base64: func([], () => base64Namespace),
  crypto: func([], () => cryptoNamespace),
  uuid: func([], () => uuidNamespace),
  random: func([], () => randomNamespace),
  net: func([], () => netNamespace),
  regexp: func([], () => regexpNamespace),
  filepath: (() => {
    const namespace = pathNamespace('*funcs.FilePathFuncs');
    return func([], () => namespace);
  })(),
  path: (() => {
    const namespace = pathNamespace('*funcs.PathFuncs');
    return func([], () => namespace);
  })(),
};
