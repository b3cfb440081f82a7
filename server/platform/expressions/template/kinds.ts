import { Duration as CelDuration } from '@marcbachmann/cel-js/evaluator';
import { GoDuration } from '../values';

/**
 * How JS values stand for Go values in the template engine (Go reaches its templates through
 * encoding/json in canary-checker and Mission Control, so data are what json.Unmarshal makes):
 *
 * | JS value                           | Go value                                   |
 * |------------------------------------|--------------------------------------------|
 * | `undefined`                        | the invalid reflect.Value (a missing key)  |
 * | `null`                             | a nil interface{}                          |
 * | string                             | string                                     |
 * | number                             | float64 (every JSON number)                |
 * | bigint                             | int (literals, len, conv.ToInt, indexes)   |
 * | boolean                            | bool                                       |
 * | array                              | []interface{}                              |
 * | plain object                       | map[string]interface{}                     |
 * | Date                               | time.Time (in UTC)                         |
 * | GoDuration, cel-js Duration        | time.Duration (an int64 kind with methods) |
 * | GoStruct                           | a gomplate namespace (`strings`, `conv`…)  |
 */
export enum Kind {
  Invalid,
  Nil,
  String,
  Float,
  Int,
  Bool,
  Slice,
  Map,
  Time,
  Duration,
  Struct,
  Func,
}

export type GoMap = Record<string, unknown>;

/** The types a function parameter can declare; Go converts or refuses an argument by them. */
export type ParamType = 'any' | 'string' | 'int' | 'float' | 'bool' | 'map' | 'list' | 'time' | 'duration' | 'value';

/**
 * A Go function or method as templates see it: typed parameters, then a variadic tail of `variadic`
 * when set; `call` gets the arguments already converted to those types and throws FuncError for Go's
 * (value, error) results.
 */
export interface GoFunc {
  readonly params: readonly ParamType[];
  readonly variadic?: ParamType | undefined;
  /** `root` is the template's data (`$`), for the few functions bound to what a run hands its templates. */
  readonly call: (args: unknown[], root?: unknown) => unknown;
}

/** A Go function's error result: the executor reports it as `error calling NAME: message`. */
export class FuncError extends Error {}

/** A Go struct value: gomplate's namespaces (`strings`, `conv`, `time`…) with their fields and methods. */
export class GoStruct {
  constructor(
    readonly typeName: string,
    readonly fields: Readonly<Record<string, unknown>>,
    readonly methods: Readonly<Record<string, GoFunc>>,
  ) {}
}

/** A function value (what `call` takes); data never holds one, but namespaces can hand one out. */
export class GoFuncValue {
  constructor(
    readonly typeName: string,
    readonly func: GoFunc,
  ) {}
}

const objectPrototype = Object.prototype;

export function isGoMap(value: unknown): value is GoMap {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === objectPrototype || proto === null;
}

export function kindOf(value: unknown): Kind {
  switch (typeof value) {
    case 'string':
      return Kind.String;
    case 'number':
      return Kind.Float;
    case 'bigint':
      return Kind.Int;
    case 'boolean':
      return Kind.Bool;
    case 'undefined':
      return Kind.Invalid;
    case 'object':
      if (value === null) return Kind.Nil;
      if (Array.isArray(value)) return Kind.Slice;
      if (value instanceof Date) return Kind.Time;
      if (value instanceof GoDuration || value instanceof CelDuration) return Kind.Duration;
      if (value instanceof GoStruct) return Kind.Struct;
      if (value instanceof GoFuncValue) return Kind.Func;
      return Kind.Map;
    default:
      return Kind.Invalid;
  }
}

/** cel-js durations (what `celDuration` gives checks) behave as GoDuration in templates. */
export function toGoDuration(value: GoDuration | CelDuration): GoDuration {
  if (value instanceof GoDuration) return value;
  return new GoDuration(value.seconds * 1_000_000_000n + BigInt(value.nanos));
}

export function asDuration(value: unknown): GoDuration | undefined {
  if (value instanceof GoDuration) return value;
  if (value instanceof CelDuration) return toGoDuration(value);
  return undefined;
}

/** Go's reflect type name of a value, as error messages and %T print it. */
export function typeName(value: unknown): string {
  switch (kindOf(value)) {
    case Kind.Invalid:
      return '<nil>';
    case Kind.Nil:
      return 'interface {}';
    case Kind.String:
      return 'string';
    case Kind.Float:
      return 'float64';
    case Kind.Int:
      return 'int';
    case Kind.Bool:
      return 'bool';
    case Kind.Slice:
      return '[]interface {}';
    case Kind.Map:
      return 'map[string]interface {}';
    case Kind.Time:
      return 'time.Time';
    case Kind.Duration:
      return 'time.Duration';
    case Kind.Struct:
      return value instanceof GoStruct ? value.typeName : 'struct';
    case Kind.Func:
      return value instanceof GoFuncValue ? value.typeName : 'func';
  }
}

/** Go's isTrue: the zero value of its kind is false; structs are always true. */
export function isTrue(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return value.length > 0;
    case 'number':
      return value !== 0;
    case 'bigint':
      return value !== 0n;
    case 'boolean':
      return value;
    case 'undefined':
      return false;
    case 'object': {
      if (value === null) return false;
      if (Array.isArray(value)) return value.length > 0;
      const duration = asDuration(value);
      if (duration) return duration.nanoseconds !== 0n;
      if (value instanceof Date || value instanceof GoStruct || value instanceof GoFuncValue) return true;
      return Object.keys(value).length > 0;
    }
    default:
      return false;
  }
}

/** Wraps an int64 result as Go does: two's complement overflow. */
export function int64(value: bigint): bigint {
  return BigInt.asIntN(64, value);
}

/** Go's float64 → int64 conversion (truncation; out of range is undefined in Go, amd64 gives MinInt64). */
export function floatToInt(value: number): bigint {
  if (!Number.isFinite(value) || value >= 9.223372036854776e18 || value < -9.223372036854776e18) return -9223372036854775808n;
  return BigInt(Math.trunc(value));
}

export function mapKeys(map: GoMap): string[] {
  return Object.keys(map)
    .filter((key) => map[key] !== undefined)
    .sort(compareStrings);
}

/** Go compares strings by bytes (UTF-8); code points order the same way, UTF-16 units do not. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.codePointAt(index) ?? 0;
    const y = b.codePointAt(index) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) index++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
