import { isRecord } from '../../errors';

/**
 * What the engine-neutral functions (jq, JSONPath, semver, Kubernetes health, label matching) need to
 * know about an engine's values. Both engines hand plain JS values (strings, numbers, bigints, booleans,
 * null, arrays, plain objects); each may add its own scalars (CEL's uint, timestamp, bytes; Go's
 * time.Duration), which it describes by passing its own operations. The defaults cover plain values.
 */
export interface ValueOps {
  /** A number of the engine: JS number, bigint, or a boxed number whose valueOf() is one. */
  isNumber(value: unknown): boolean;
  /** Equality as the engine's `==` sees it (numbers by value, lists and maps deeply). */
  equals(a: unknown, b: unknown): boolean;
  /** A scalar as text, as the engine's string conversion writes it. */
  text(value: unknown): string;
}

export function fail(message: string): never {
  throw new Error(message);
}

function isPlainNumber(value: unknown): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}

function plainEquals(a: unknown, b: unknown): boolean {
  if (isPlainNumber(a) && isPlainNumber(b)) return Number(a) === Number(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => plainEquals(item, b[i]));
  if (isRecord(a) && isRecord(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && plainEquals(a[key], b[key]));
  }
  return a === b;
}

function plainText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return String(value);
}

/** Operations over plain JS values (what JSON and YAML decode to). */
export const plainValues: ValueOps = { isNumber: isPlainNumber, equals: plainEquals, text: plainText };

/** A number's value, for ordering: number, bigint, or a boxed number. */
export function numberValue(value: unknown): number | bigint {
  const raw: unknown = Object(value).valueOf();
  return typeof raw === 'bigint' || typeof raw === 'number' ? raw : Number(raw);
}
