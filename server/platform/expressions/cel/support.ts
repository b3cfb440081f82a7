import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { isRecord } from '../../errors';
import { formatGoDuration } from '../values';
import { propertyOf } from '../../../../common/guards';

/* eslint-disable @typescript-eslint/no-explicit-any -- CEL handlers take whatever the expression passes */
export type Handler = (...args: any[]) => unknown;

/**
 * What registers the functions: the cel-js environment plus the namespaces (`math.`, `strings.`, …)
 * made so far. A namespace is a constant of its own type, so `math.greatest(x)` is a method call on it,
 * checked like any other (a misspelt `math.greates(x)` fails at compile time).
 */
export class Registrar {
  private readonly namespaces = new Map<string, { type: string; instance: Record<string, unknown> }>();
  /** Every name registered, as written in an expression (`toJSON`, `math.greatest`), for the docs and tests. */
  readonly names = new Set<string>();

  constructor(readonly env: Environment) {}

  private namespace(namespace: string): { type: string; instance: Record<string, unknown> } {
    let entry = this.namespaces.get(namespace);
    if (!entry) {
      const type = `FlanksourceNamespace${namespace}`;
      const ctor = { [type]: class {} }[type] as new () => Record<string, unknown>;
      const instance = new ctor();
      this.env.registerType(type, ctor);
      this.env.registerConstant(namespace, type, instance);
      entry = { type, instance };
      this.namespaces.set(namespace, entry);
    }
    return entry;
  }

  private namespaceType(namespace: string): string {
    return this.namespace(namespace).type;
  }

  /** A constant value inside a namespace, as `time.Hour` (the namespace object's own properties are its fields). */
  namespaceValue(namespace: string, name: string, value: unknown): void {
    this.namespace(namespace).instance[name] = value;
    this.names.add(`${namespace}.${name}`);
  }

  /**
   * A global function (`HumanDuration(x)`) or, with a dot, a namespaced one (`math.greatest(x)`), taking
   * `arity` dyn arguments; a list of arities registers each. Arguments are checked by the handler.
   */
  fn(name: string, arity: number | readonly number[], handler: Handler, returns = 'dyn'): void {
    const dot = name.lastIndexOf('.');
    const arities = typeof arity === 'number' ? [arity] : arity;
    for (const count of arities) {
      const args = Array.from({ length: count }, () => 'dyn').join(', ');
      if (dot < 0) {
        this.env.registerFunction(`${name}(${args}): ${returns}`, handler);
      } else {
        const type = this.namespaceType(name.slice(0, dot));
        this.env.registerFunction(`${type}.${name.slice(dot + 1)}(${args}): ${returns}`, (_ns: unknown, ...rest: unknown[]) => handler(...rest));
      }
    }
    this.names.add(name);
  }

  /** A method (`'x'.quote()`), on a receiver type (`string`, `list`, `map`, `dyn`), with dyn arguments. */
  method(receiver: string, name: string, arity: number | readonly number[], handler: Handler, returns = 'dyn'): void {
    const arities = typeof arity === 'number' ? [arity] : arity;
    for (const count of arities) {
      const args = Array.from({ length: count }, () => 'dyn').join(', ');
      this.env.registerFunction(`${receiver}.${name}(${args}): ${returns}`, handler);
    }
    this.names.add(`.${name}`);
  }
}

/** A CEL value's type as an error message names it. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof UnsignedInt) return 'uint';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Date) return 'timestamp';
  if (value instanceof Duration) return 'duration';
  if (Array.isArray(value)) return 'list';
  const tag = propertyOf(value, Symbol.toStringTag);
  if (tag === 'optional') return 'optional';
  if (typeof tag === 'string' && tag.startsWith('Type<')) return 'type';
  return 'map';
}

export function fail(message: string): never {
  throw new Error(message);
}

export function isNumber(value: unknown): value is bigint | number | UnsignedInt {
  return typeof value === 'bigint' || typeof value === 'number' || value instanceof UnsignedInt;
}

/** A number from a CEL int, uint, double or numeric string; fails naming `fn` otherwise. */
export function toNumber(value: unknown, fn: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof UnsignedInt) return Number(value.valueOf());
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return fail(`${fn}: expected a number, got ${typeName(value)}`);
}

/** An integer (as a JS number) from a CEL int, uint, whole double or integer string. */
export function toInt(value: unknown, fn: string): number {
  const number = toNumber(value, fn);
  return Math.trunc(number);
}

/** Go's conv.ToString: what gomplate functions do to an argument they want as text. */
export function toStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return goFloat(value);
  if (value instanceof UnsignedInt) return String(value.valueOf());
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Duration) return formatGoDuration(durationNanos(value));
  if (Array.isArray(value)) return `[${value.map(toStr).join(' ')}]`;
  if (value instanceof Map) return `map[${[...value.entries()].map(([k, v]) => `${toStr(k)}:${toStr(v)}`).join(' ')}]`;
  if (isRecord(value)) return `map[${Object.keys(value).sort().map((k) => `${k}:${toStr(value[k])}`).join(' ')}]`;
  return String(value);
}

/** A float as Go's %v prints it: 2.5, 3, 1e+21. */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e21 || abs < 1e-4)) {
    const [mantissa, exponent = '0'] = value.toExponential().split('e');
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exponent.replace(/^[-+]/, '').padStart(2, '0')}`;
  }
  return String(value);
}

export function durationNanos(value: Duration): bigint {
  return value.seconds * 1_000_000_000n + BigInt(value.nanos);
}

export function durationFromNanos(nanos: bigint): Duration {
  const seconds = nanos / 1_000_000_000n;
  return new Duration(seconds, Number(nanos - seconds * 1_000_000_000n));
}

/** Entries of a CEL map (a JS object or a Map). */
export function entriesOf(value: unknown, fn: string): Array<[unknown, unknown]> {
  if (value instanceof Map) return [...value.entries()];
  if (isRecord(value) && !isScalarObject(value)) return Object.entries(value);
  return fail(`${fn}: expected a map, got ${typeName(value)}`);
}

function isScalarObject(value: object): boolean {
  return value instanceof Date || value instanceof Duration || value instanceof Uint8Array || value instanceof UnsignedInt;
}

export function isMap(value: unknown): value is Record<string, unknown> | Map<unknown, unknown> {
  return value instanceof Map || (isRecord(value) && !isScalarObject(value));
}

export function listOf(value: unknown, fn: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  return fail(`${fn}: expected a list, got ${typeName(value)}`);
}

export function stringOf(value: unknown, fn: string): string {
  if (typeof value === 'string') return value;
  return fail(`${fn}: expected a string, got ${typeName(value)}`);
}

/** CEL equality: numbers compare across int, uint and double; lists and maps deeply. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (isNumber(a) && isNumber(b)) return Number(a.valueOf()) === Number(b.valueOf());
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Duration && b instanceof Duration) return durationNanos(a) === durationNanos(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => celEquals(item, b[i]));
  if (isMap(a) && isMap(b)) {
    const left = entriesOf(a, '==');
    const right = new Map(entriesOf(b, '=='));
    return left.length === right.size && left.every(([key, value]) => right.has(key) && celEquals(value, right.get(key)));
  }
  return a === b;
}

/** CEL ordering for sort, min, max: numbers, strings, bools, timestamps, durations. */
export function celCompare(a: unknown, b: unknown, fn: string): number {
  if (isNumber(a) && isNumber(b)) {
    const x = a.valueOf();
    const y = b.valueOf();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof Duration && b instanceof Duration) {
    const x = durationNanos(a);
    const y = durationNanos(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return fail(`${fn}: cannot compare ${typeName(a)} with ${typeName(b)}`);
}

/** A JS number result as CEL wants it: whole numbers from integer math stay ints. */
export function intOrDouble(value: number, asInt: boolean): bigint | number {
  return asInt && Number.isSafeInteger(value) ? BigInt(value) : value;
}
