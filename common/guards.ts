/**
 * Type guards for values read from outside the type system (request fields, stored rows, parsed YAML),
 * so code narrows instead of casting (issue 39 §5).
 */

/** Whether `value` is one of `list` (a literal tuple such as `['a', 'b'] as const`), narrowing it to that union. */
export function isOneOf<const T>(list: readonly T[], value: unknown): value is T {
  const values: readonly unknown[] = list;
  return values.includes(value);
}

/** `value[key]` when `value` is an object (or function), else undefined: a field of something not yet typed. */
export function propertyOf(value: unknown, key: PropertyKey): unknown {
  return (typeof value === 'object' && value !== null) || typeof value === 'function' ? Reflect.get(value, key) : undefined;
}
