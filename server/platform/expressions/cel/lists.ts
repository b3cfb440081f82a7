import { randomInt } from 'node:crypto';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celCompare, celEquals, fail, intOrDouble, isNumber, listOf, toInt, toNumber, toStr, typeName, type Registrar } from './support';

function distinct(list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const item of list) if (!out.some((seen) => celEquals(seen, item))) out.push(item);
  return out;
}

function flatten(list: unknown[], depth: number): unknown[] {
  if (depth < 0) return fail('flatten: the depth must not be negative');
  const out: unknown[] = [];
  for (const item of list) {
    if (Array.isArray(item) && depth > 0) out.push(...flatten(item, depth - 1));
    else out.push(item);
  }
  return out;
}

function sorted(list: unknown[], fn: string): unknown[] {
  return [...list].sort((a, b) => celCompare(a, b, fn));
}

/** The numbers of math.greatest / math.least: variadic, or one list. */
function numbers(args: unknown[], fn: string): unknown[] {
  const values = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  if (values.length === 0) return fail(`${fn}: needs at least one number`);
  for (const value of values) if (!isNumber(value)) return fail(`${fn}: expected numbers, got ${typeName(value)}`);
  return values;
}

function extreme(args: unknown[], fn: string, sign: 1 | -1): unknown {
  return numbers(args, fn).reduce((best, value) => (celCompare(value, best, fn) * sign > 0 ? value : best));
}

function int64(value: unknown, fn: string): bigint {
  if (typeof value === 'bigint') return value;
  if (value instanceof UnsignedInt) return value.valueOf();
  return fail(`${fn}: expected an int, got ${typeName(value)}`);
}

/**
 * cel-go's bit operations: on two ints an int, on two uints a uint (64 bits either way); an int with a uint
 * is no overload, as in cel-go.
 */
function bitwise(fn: string, op: (a: bigint, b: bigint) => bigint): (a: unknown, b: unknown) => bigint | UnsignedInt {
  return (a, b) => {
    if (a instanceof UnsignedInt && b instanceof UnsignedInt) return new UnsignedInt(BigInt.asUintN(64, op(a.valueOf(), b.valueOf())));
    if (typeof a === 'bigint' && typeof b === 'bigint') return BigInt.asIntN(64, op(a, b));
    return fail(`${fn}: expected two ints or two uints, got ${typeName(a)} and ${typeName(b)}`);
  };
}

/** cel-go's shifts: an int or uint shifted by an int count; 64 or more shifts everything out. */
function shift(fn: string, left: boolean): (a: unknown, b: unknown) => bigint | UnsignedInt {
  return (a, b) => {
    if (typeof b !== 'bigint') return fail(`${fn}: the shift count must be an int, got ${typeName(b)}`);
    if (b < 0n) return fail(`${fn}: negative offset`);
    if (!(a instanceof UnsignedInt) && typeof a !== 'bigint') return fail(`${fn}: expected an int or uint, got ${typeName(a)}`);
    // cel-go shifts ints right logically (as unsigned).
    const bits = BigInt.asUintN(64, a.valueOf());
    const shifted = b > 63n ? 0n : BigInt.asUintN(64, left ? bits << b : bits >> b);
    return a instanceof UnsignedInt ? new UnsignedInt(shifted) : BigInt.asIntN(64, shifted);
  };
}

/** A double, for cel-go's ceil/floor/round/trunc, which have no int overload (an int through dyn is an error). */
function double(value: unknown, fn: string): number {
  if (typeof value === 'number') return value;
  return fail(`${fn}: expected a double, got ${typeName(value)}`);
}

/** A double or an int as one, for the math functions cel-go declares on int, uint and double. */
function anyDouble(value: unknown, fn: string): number {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof UnsignedInt) return Number(value.valueOf());
  return double(value, fn);
}

/** Round half away from zero, as Go's math.Round. */
function round(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/** gomplate math results: ints when every input is an int, doubles otherwise. */
function allInts(values: unknown[]): boolean {
  return values.every((value) => typeof value === 'bigint' || (typeof value === 'string' && /^-?\d+$/.test(value)));
}

function sumOf(list: unknown[]): unknown {
  if (list.every((value): value is bigint => typeof value === 'bigint')) return list.reduce((a, b) => a + b, 0n);
  return list.reduce<number>((a, b) => a + toNumber(b, 'sum'), 0);
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

function randomFrom(chars: string, count: number): string {
  if (chars.length === 0) return fail('random: no characters to choose from');
  let out = '';
  for (let i = 0; i < count; i++) out += chars[randomInt(chars.length)];
  return out;
}

export function registerLists(r: Registrar): void {
  // cel-go lists extension.
  r.fn('lists.range', 1, (n: unknown) => Array.from({ length: Math.max(0, toInt(n, 'lists.range')) }, (_, i) => BigInt(i)), 'list');
  r.method('list', 'slice', 2, (list: unknown[], from: unknown, to: unknown) => {
    const start = toInt(from, 'slice');
    const end = toInt(to, 'slice');
    if (start < 0 || end < start || end > list.length) return fail(`slice: indexes ${start}..${end} out of range for a list of ${list.length}`);
    return list.slice(start, end);
  }, 'list');
  r.method('list', 'flatten', [0, 1], (list: unknown[], depth?: unknown) => flatten(list, depth === undefined ? 1 : toInt(depth, 'flatten')), 'list');
  r.method('list', 'sort', 0, (list: unknown[]) => sorted(list, 'sort'), 'list');
  r.method('list', 'distinct', 0, (list: unknown[]) => distinct(list), 'list');
  r.method('list', 'uniq', 0, (list: unknown[]) => distinct(list), 'list');
  r.method('list', 'reverse', 0, (list: unknown[]) => [...list].reverse(), 'list');
  // Kubernetes' list library (gomplate includes it).
  r.method('list', 'sum', 0, (list: unknown[]) => sumOf(list));
  r.method('list', 'min', 0, (list: unknown[]) => (list.length === 0 ? fail('min: the list is empty') : extreme(list, 'min', -1)));
  r.method('list', 'max', 0, (list: unknown[]) => (list.length === 0 ? fail('max: the list is empty') : extreme(list, 'max', 1)));
  r.method('list', 'isSorted', 0, (list: unknown[]) => list.every((item, i) => i === 0 || celCompare(list[i - 1], item, 'isSorted') <= 0), 'bool');
  r.method('list', 'indexOf', 1, (list: unknown[], item: unknown) => BigInt(list.findIndex((value) => celEquals(value, item))), 'int');
  r.method('list', 'lastIndexOf', 1, (list: unknown[], item: unknown) => {
    for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i], item)) return BigInt(i);
    return -1n;
  }, 'int');

  // cel-go sets extension.
  r.fn('sets.contains', 2, (a: unknown, b: unknown) => listOf(b, 'sets.contains').every((item) => listOf(a, 'sets.contains').some((x) => celEquals(x, item))), 'bool');
  r.fn('sets.equivalent', 2, (a: unknown, b: unknown) => {
    const left = listOf(a, 'sets.equivalent');
    const right = listOf(b, 'sets.equivalent');
    return left.every((x) => right.some((y) => celEquals(x, y))) && right.every((y) => left.some((x) => celEquals(x, y)));
  }, 'bool');
  r.fn('sets.intersects', 2, (a: unknown, b: unknown) => listOf(a, 'sets.intersects').some((x) => listOf(b, 'sets.intersects').some((y) => celEquals(x, y))), 'bool');

  // cel-go math extension.
  const variadic = [1, 2, 3, 4, 5, 6, 7, 8];
  r.fn('math.greatest', variadic, (...args: unknown[]) => extreme(args, 'math.greatest', 1));
  r.fn('math.least', variadic, (...args: unknown[]) => extreme(args, 'math.least', -1));
  r.fn('math.ceil', 1, (x: unknown) => Math.ceil(double(x, 'math.ceil')), 'double');
  r.fn('math.floor', 1, (x: unknown) => Math.floor(double(x, 'math.floor')), 'double');
  r.fn('math.round', 1, (x: unknown) => round(double(x, 'math.round')), 'double');
  r.fn('math.trunc', 1, (x: unknown) => Math.trunc(double(x, 'math.trunc')), 'double');
  r.fn('math.sqrt', 1, (x: unknown) => Math.sqrt(toNumber(x, 'math.sqrt')), 'double');
  r.fn('math.abs', 1, (x: unknown) => {
    if (typeof x === 'bigint') {
      if (x === -9223372036854775808n) return fail('math.abs: integer overflow');
      return x < 0n ? -x : x;
    }
    if (x instanceof UnsignedInt) return x;
    return Math.abs(double(x, 'math.abs'));
  });
  r.fn('math.sign', 1, (x: unknown) => {
    if (typeof x === 'bigint') return x > 0n ? 1n : x < 0n ? -1n : 0n;
    if (x instanceof UnsignedInt) return new UnsignedInt(x.valueOf() > 0n ? 1n : 0n);
    return Math.sign(double(x, 'math.sign'));
  });
  r.fn('math.isNaN', 1, (x: unknown) => Number.isNaN(anyDouble(x, 'math.isNaN')), 'bool');
  r.fn('math.isInf', 1, (x: unknown) => {
    const value = anyDouble(x, 'math.isInf');
    return !Number.isFinite(value) && !Number.isNaN(value);
  }, 'bool');
  r.fn('math.isFinite', 1, (x: unknown) => Number.isFinite(anyDouble(x, 'math.isFinite')), 'bool');
  r.fn('math.bitOr', 2, bitwise('math.bitOr', (a, b) => a | b));
  r.fn('math.bitAnd', 2, bitwise('math.bitAnd', (a, b) => a & b));
  r.fn('math.bitXor', 2, bitwise('math.bitXor', (a, b) => a ^ b));
  r.fn('math.bitNot', 1, (a: unknown) => {
    if (a instanceof UnsignedInt) return new UnsignedInt(BigInt.asUintN(64, ~a.valueOf()));
    return ~int64(a, 'math.bitNot');
  });
  r.fn('math.bitShiftLeft', 2, shift('math.bitShiftLeft', true));
  r.fn('math.bitShiftRight', 2, shift('math.bitShiftRight', false));

  // gomplate's math (capitalised).
  const listArgs = (args: unknown[]) => (args.length === 1 && Array.isArray(args[0]) ? args[0] : args);
  r.fn('math.Add', variadic, (...args: unknown[]) => {
    const values = listArgs(args);
    const total = values.reduce<number>((sum, value) => sum + toNumber(value, 'math.Add'), 0);
    return intOrDouble(total, allInts(values));
  });
  r.fn('math.Mul', variadic, (...args: unknown[]) => {
    const values = listArgs(args);
    const product = values.reduce<number>((acc, value) => acc * toNumber(value, 'math.Mul'), 1);
    return intOrDouble(product, allInts(values));
  });
  r.fn('math.Sub', 2, (a: unknown, b: unknown) => intOrDouble(toNumber(a, 'math.Sub') - toNumber(b, 'math.Sub'), allInts([a, b])));
  r.fn('math.Div', 2, (a: unknown, b: unknown) => {
    const divisor = toNumber(b, 'math.Div');
    if (divisor === 0) return fail('math.Div: division by 0');
    return toNumber(a, 'math.Div') / divisor;
  }, 'double');
  r.fn('math.Rem', 2, (a: unknown, b: unknown) => {
    const divisor = toInt(b, 'math.Rem');
    if (divisor === 0) return fail('math.Rem: division by 0');
    return BigInt(toInt(a, 'math.Rem') % divisor);
  }, 'int');
  r.fn('math.Pow', 2, (a: unknown, b: unknown) => toNumber(a, 'math.Pow') ** toNumber(b, 'math.Pow'), 'double');
  r.fn('math.Seq', [1, 2, 3], (...args: unknown[]) => {
    const values = listArgs(args).map((value) => toInt(value, 'math.Seq'));
    let [start, end, step] = values.length === 1 ? [1, values[0] ?? 1, 1] : [values[0] ?? 1, values[1] ?? 1, values[2]];
    step ??= start <= end ? 1 : -1;
    if (step === 0 || (step > 0 && start > end) || (step < 0 && start < end)) return [];
    const out: bigint[] = [];
    for (let i = start; step > 0 ? i <= end : i >= end; i += step) {
      out.push(BigInt(i));
      if (out.length > 100_000) return fail('math.Seq: more than 100000 values');
    }
    start = 0;
    return out;
  }, 'list');
  r.fn('math.Abs', 1, (x: unknown) => (typeof x === 'bigint' ? (x < 0n ? -x : x) : Math.abs(toNumber(x, 'math.Abs'))));
  r.fn('math.Ceil', 1, (x: unknown) => Math.ceil(toNumber(x, 'math.Ceil')), 'double');
  r.fn('math.Floor', 1, (x: unknown) => Math.floor(toNumber(x, 'math.Floor')), 'double');
  r.fn('math.Round', 1, (x: unknown) => round(toNumber(x, 'math.Round')), 'double');
  r.fn('math.Max', variadic, (...args: unknown[]) => {
    const values = listArgs(args);
    return intOrDouble(Math.max(...values.map((value) => toNumber(value, 'math.Max'))), allInts(values));
  });
  r.fn('math.Min', variadic, (...args: unknown[]) => {
    const values = listArgs(args);
    return intOrDouble(Math.min(...values.map((value) => toNumber(value, 'math.Min'))), allInts(values));
  });
  r.fn('math.IsInt', 1, (x: unknown) => typeof x === 'bigint' || x instanceof UnsignedInt || (typeof x === 'string' && /^[-+]?\d+$/.test(x.trim())), 'bool');
  r.fn('math.IsFloat', 1, (x: unknown) => typeof x === 'number' || (typeof x === 'string' && /^[-+]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+|inf|nan)$/i.test(x.trim())), 'bool');
  r.fn('math.IsNum', 1, (x: unknown) => isNumber(x) || (typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x))), 'bool');

  // gomplate's random.
  r.fn('random.ASCII', 1, (n: unknown) => randomFrom(Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join(''), toInt(n, 'random.ASCII')), 'string');
  r.fn('random.Alpha', 1, (n: unknown) => randomFrom(ALPHA, toInt(n, 'random.Alpha')), 'string');
  r.fn('random.AlphaNum', 1, (n: unknown) => randomFrom(ALPHA + DIGITS, toInt(n, 'random.AlphaNum')), 'string');
  r.fn('random.String', [1, 2], (n: unknown, chars?: unknown) => {
    const count = toInt(n, 'random.String');
    const list = chars === undefined ? [] : Array.isArray(chars) ? chars.map(toStr) : [toStr(chars)];
    if (list.length === 2 && list.every((c) => c.length === 1)) {
      const [from = 0, to = 0] = list.map((c) => c.charCodeAt(0));
      return randomFrom(Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => String.fromCharCode(from + i)).join(''), count);
    }
    return randomFrom(list.length === 0 ? ALPHA + DIGITS : list.join(''), count);
  }, 'string');
  r.fn('random.Item', 1, (list: unknown) => {
    const items = listOf(list, 'random.Item');
    if (items.length === 0) return fail('random.Item: the list is empty');
    return items[randomInt(items.length)];
  });
  r.fn('random.Number', [0, 1, 2], (...args: unknown[]) => {
    const values = listArgs(args).map((value) => toInt(value, 'random.Number'));
    const [min, max] = values.length === 0 ? [0, 100] : values.length === 1 ? [0, values[0] ?? 100] : [values[0] ?? 0, values[1] ?? 100];
    if (max < min) return fail('random.Number: max is less than min');
    return BigInt(min + randomInt(max - min + 1));
  }, 'int');
  r.fn('random.Float', [0, 1, 2], (...args: unknown[]) => {
    const values = listArgs(args).map((value) => toNumber(value, 'random.Float'));
    const [min, max] = values.length === 0 ? [0, 1] : values.length === 1 ? [0, values[0] ?? 1] : [values[0] ?? 0, values[1] ?? 1];
    return min + Math.random() * (max - min);
  }, 'double');
}
