/**
 * Small readers of API answers for the shell (the code loaded before the first page): zod costs about
 * 20 KB gzip there, more than the rest of what these few answers need. Each throws a ShapeError naming
 * the field that does not fit, as a zod parse would; pages load zod with themselves.
 */
export class ShapeError extends Error {
  override name = 'ShapeError';
}

export type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown, what: string): Fields {
  if (!isFields(value)) throw new ShapeError(`${what}: expected an object`);
  return value;
}

export function text(fields: Fields, key: string, what: string): string {
  const value = fields[key];
  if (typeof value !== 'string') throw new ShapeError(`${what}.${key}: expected a string`);
  return value;
}

/** A string, or undefined for a missing or null field. */
export function optionalText(fields: Fields, key: string, what: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ShapeError(`${what}.${key}: expected a string`);
  return value;
}

export function optionalNumber(fields: Fields, key: string, what: string): number | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number') throw new ShapeError(`${what}.${key}: expected a number`);
  return value;
}

export function flag(fields: Fields, key: string, what: string): boolean {
  const value = fields[key];
  if (typeof value !== 'boolean') throw new ShapeError(`${what}.${key}: expected true or false`);
  return value;
}

export function oneOf<T extends string>(fields: Fields, key: string, allowed: readonly T[], what: string): T {
  const value = fields[key];
  const found = allowed.find((option) => option === value);
  if (found === undefined) throw new ShapeError(`${what}.${key}: expected one of ${allowed.join(', ')}`);
  return found;
}

export function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(`${what}: expected a list`);
  return value;
}
