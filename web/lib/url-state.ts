/** Keys that must never become properties of a parsed object (spec §5, STYLE: the URL holds the state). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The query string as a plain map, read once. Forbidden keys are dropped and the map has no prototype,
 * so a crafted URL cannot reach Object.prototype through it.
 */
export function readSearchParams(params: URLSearchParams): Readonly<Record<string, string>> {
  const out: Record<string, string> = Object.create(null);
  for (const [key, value] of params) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    out[key] = value;
  }
  return out;
}

/** One of the allowed values, or the fallback. */
export function pickOption<T extends string>(value: string | undefined, options: readonly T[], fallback: T): T {
  return options.find((option) => option === value) ?? fallback;
}

/** A non-negative integer parameter, or the fallback. */
export function readInteger(value: string | undefined, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  if (value === undefined || !/^\d+$/.test(value)) return fallback;
  const number = Number(value);
  return number >= min && number <= max ? number : fallback;
}

/**
 * Writes changes into search params: undefined or the default value removes the key, so URLs hold only
 * what differs from the defaults.
 */
export function patchSearchParams(params: URLSearchParams, patch: Record<string, string | undefined>, defaults: Record<string, string> = {}): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    if (value === undefined || value === '' || defaults[key] === value) next.delete(key);
    else next.set(key, value);
  }
  return next;
}
