import { z } from 'zod';
import { REQUIRED } from '../feature-flags/schema';
import type { ResourceField } from './registry';

export const resourceRowSchema = z.record(z.string(), z.unknown());
export type ResourceRow = z.infer<typeof resourceRowSchema>;
export type ResourceValues = Record<string, string>;

/** A cell or input text for any JSON value. */
export function valueToText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function rowId(row: ResourceRow): string {
  return valueToText(row.id);
}

/** The form schema of a resource: required fields say 'This field is required' (spec §5). */
export function formSchema(fields: readonly ResourceField[]) {
  return z.object(Object.fromEntries(fields.map((field) => [field.name, field.required ? z.string().trim().min(1, REQUIRED) : z.string()])));
}

export function initialValues(fields: readonly ResourceField[], row: ResourceRow | null): ResourceValues {
  return Object.fromEntries(fields.map((field) => [field.name, row ? valueToText(row[field.name]) : (field.defaultValue ?? '')]));
}

/** What to write: on update the immutable fields are left out, so the server never sees a rename. */
export function valuesToWrite(fields: readonly ResourceField[], values: ResourceValues, existing: boolean): ResourceValues {
  return Object.fromEntries(fields.filter((field) => !(existing && field.immutable)).map((field) => [field.name, values[field.name] ?? '']));
}
