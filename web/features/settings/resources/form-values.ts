import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { REQUIRED } from '@web/lib/validation';
import type { JsonValue, ResourceField, ResourceRow, ResourceWrite } from './types';
import { valueToText } from './values';

/** What the form holds: one text per field. */
export type ResourceValues = Record<string, string>;

export type { JsonValue, ResourceWrite } from './types';

export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
);
const codeObjectSchema = z.record(z.string(), jsonValueSchema);

export const CODE_OBJECT_MESSAGE = 'Must be a YAML or JSON object (key: value lines or {…})';

/**
 * A code field's text as the object it stands for: blank is `{}`, YAML and JSON (a subset of YAML) are
 * both accepted, and anything else (a list, a bare word, a syntax error) says what is wrong.
 */
export function parseCode(text: string): { ok: true; value: Record<string, JsonValue> } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    // The parser's first line names the problem and its line and column; the rest is a code excerpt.
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : '';
    return { ok: false, message: `Invalid YAML: ${first}`.trim() };
  }
  if (parsed === null || parsed === undefined) return { ok: true, value: {} };
  const result = codeObjectSchema.safeParse(parsed);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: CODE_OBJECT_MESSAGE };
}

/** An object shown in a code field: YAML, and blank for an empty object. */
export function codeToText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return '';
  if (typeof value === 'string') return value;
  return stringify(value);
}

/** A 'pairs' field's form text: the rows as JSON, blank ones included while they are being typed. */
export function pairsToText(pairs: ReadonlyArray<{ name: string; value: string }>): string {
  return JSON.stringify(pairs);
}

export function textToPairs(text: string): Array<{ name: string; value: string }> {
  try {
    const parsed: unknown = JSON.parse(text || '[]');
    return Array.isArray(parsed) ? parsed.filter((pair): pair is { name: string; value: string } => typeof pair?.name === 'string' && typeof pair?.value === 'string') : [];
  } catch {
    return [];
  }
}

/** Spec §5: a value needs its key; keys are unique. */
export function pairsProblem(text: string): string | undefined {
  const pairs = textToPairs(text);
  if (pairs.some((pair) => pair.name.trim() === '' && pair.value.trim() !== '')) return 'Every value needs a key';
  const keys = pairs.map((pair) => pair.name.trim()).filter(Boolean);
  const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
  return repeated ? `The key "${repeated}" is given twice` : undefined;
}

function fieldSchema(field: ResourceField) {
  if (field.kind === 'pairs') {
    return z.string().superRefine((text, ctx) => {
      const problem = pairsProblem(text);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
  }
  const base = field.required ? z.string().trim().min(1, REQUIRED) : z.string();
  if (field.kind !== 'code') return base;
  return base.superRefine((text, ctx) => {
    const result = parseCode(text);
    if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message });
  });
}

/** The form schema of a resource: required fields say 'This field is required' (spec §5). */
export function formSchema(fields: readonly ResourceField[]) {
  return z.object(Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)])));
}

export function initialValues(fields: readonly ResourceField[], row: ResourceRow | null): ResourceValues {
  return Object.fromEntries(
    fields.map((field) => {
      if (field.kind === 'pairs') {
        const value = row?.[field.name];
        const pairs = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value).map(([name, item]) => ({ name, value: valueToText(item) })) : [];
        return [field.name, pairsToText(pairs)];
      }
      if (!row) return [field.name, field.defaultValue ?? ''];
      return [field.name, field.kind === 'code' ? codeToText(row[field.name]) : valueToText(row[field.name])];
    }),
  );
}

/**
 * What to write: on update the immutable fields are left out, so the server never sees a rename; code
 * fields become objects; a blank optional field with a default is saved as that default.
 */
export function valuesToWrite(fields: readonly ResourceField[], values: ResourceValues, existing: boolean): ResourceWrite {
  const out: ResourceWrite = {};
  for (const field of fields) {
    if (existing && field.immutable) continue;
    const text = values[field.name] ?? '';
    if (field.kind === 'pairs') {
      out[field.name] = Object.fromEntries(textToPairs(text).filter((pair) => pair.name.trim() !== '').map((pair) => [pair.name.trim(), pair.value]));
    } else if (field.kind === 'code') {
      const parsed = parseCode(text);
      // The form only submits valid values; a stray invalid one is refused rather than sent as text.
      if (!parsed.ok) throw new Error(`${field.label}: ${parsed.message}`);
      out[field.name] = parsed.value;
    } else {
      out[field.name] = text.trim() === '' && field.defaultValue !== undefined ? field.defaultValue : text;
    }
  }
  return out;
}
