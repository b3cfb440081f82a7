import { Environment } from '@marcbachmann/cel-js';
import type { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { fail, type Registrar } from './support';

const MAX_INT = 2n ** 63n - 1n;

/** cel-js's type values are instances of a class it does not export; `int` is one. */
const TypeValue = (new Environment().evaluate('int') as object).constructor as new (name: string) => object;

/** `optional_type`, the type of optional values (`type(optional.none()) == optional_type`; see rewrite.ts). */
export const OPTIONAL_TYPE = new TypeValue('optional_type');

/**
 * Overloads of CEL's standard library that cel-js lacks: ordering of bytes (byte by byte, a prefix first, as
 * cel-go), `int(uint)` (failing past int64), `int(timestamp)` (Unix seconds), and the identity conversions
 * `duration(duration)` and `timestamp(timestamp)`, and the `optional_type` constant.
 */
export function registerStandard(r: Registrar): void {
  const compare = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);
  r.env.registerOperator('bytes < bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) < 0);
  r.env.registerOperator('bytes <= bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) <= 0);
  r.env.registerOperator('bytes > bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) > 0);
  r.env.registerOperator('bytes >= bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) >= 0);
  r.env.registerFunction('int(uint): int', (value: UnsignedInt) => {
    const number = value.valueOf();
    return number > MAX_INT ? fail(`int(${number}u): the value is outside the int64 range`) : number;
  });
  r.env.registerFunction('int(google.protobuf.Timestamp): int', (time: Date) => BigInt(Math.floor(time.getTime() / 1000)));
  r.env.registerFunction('duration(google.protobuf.Duration): google.protobuf.Duration', (value: Duration) => value);
  r.env.registerFunction('timestamp(google.protobuf.Timestamp): google.protobuf.Timestamp', (value: Date) => value);
  r.env.registerConstant('optional_type', 'type', OPTIONAL_TYPE);
}
