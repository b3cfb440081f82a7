import type { GoDuration } from '../values';
import { asDuration, FuncError, type GoFunc, type GoMap, isGoMap, type ParamType } from './kinds';

/** The JS type a parameter of each Go type receives once the executor has converted the argument. */
type TypeOf<P extends ParamType> = P extends 'string'
  ? string
  : P extends 'int'
    ? bigint
    : P extends 'float'
      ? number
      : P extends 'bool'
        ? boolean
        : P extends 'map'
          ? GoMap
          : P extends 'list'
            ? unknown[]
            : P extends 'time'
              ? Date
              : P extends 'duration'
                ? GoDuration
                : unknown;

type Args<Ps extends readonly ParamType[]> = { -readonly [K in keyof Ps]: TypeOf<Ps[K]> };

function matches(type: ParamType, value: unknown): boolean {
  switch (type) {
    case 'any':
    case 'value':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'bigint';
    case 'float':
      return typeof value === 'number';
    case 'bool':
      return typeof value === 'boolean';
    case 'map':
      return isGoMap(value);
    case 'list':
      return Array.isArray(value);
    case 'time':
      return value instanceof Date;
    case 'duration':
      return asDuration(value) !== undefined;
  }
}

function fixedArgs<const Ps extends readonly ParamType[]>(params: Ps, args: unknown[]): args is Args<Ps> {
  return args.length === params.length && params.every((type, index) => matches(type, args[index]));
}

function tailArgs<const Ps extends readonly ParamType[], V extends ParamType>(
  params: Ps,
  variadic: V,
  args: unknown[],
): args is [...Args<Ps>, ...TypeOf<V>[]] {
  if (args.length < params.length) return false;
  return args.every((value, index) => matches(params[index] ?? variadic, value));
}

// The executor converts every argument to its parameter's type before the call (exec-call.ts), so a
// mismatch here is a bug in this engine, never a template's fault.
function internal(): never {
  throw new FuncError('internal error: arguments do not match the function signature');
}

/** A Go function of fixed parameters. */
export function func<const Ps extends readonly ParamType[]>(params: Ps, body: (...args: Args<Ps>) => unknown): GoFunc {
  return {
    params,
    call: (args) => (fixedArgs(params, args) ? body(...args) : internal()),
  };
}

/** A Go function whose last parameter is `...variadic`. */
export function variadicFunc<const Ps extends readonly ParamType[], V extends ParamType>(
  params: Ps,
  variadic: V,
  body: (...args: [...Args<Ps>, ...TypeOf<V>[]]) => unknown,
): GoFunc {
  return {
    params,
    variadic,
    call: (args) => (tailArgs(params, variadic, args) ? body(...args) : internal()),
  };
}

/** `func(args ...interface{})`: the most common gomplate signature. */
export function anyArgs(body: (args: unknown[]) => unknown): GoFunc {
  return { params: [], variadic: 'any', call: body };
}
