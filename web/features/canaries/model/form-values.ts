import { z } from 'zod';
import { REQUIRED } from '@web/lib/validation';
import { checkForm, isVisible, type CheckField, type FormFieldValue } from './check-forms';
import { DEFAULT_NAMESPACE, isRecord, type CanaryDocument } from './document';
import { CANARY_FIELDS } from './spec-fields';

/** Spec §5 message of a number field that holds something else. */
export const NUMBER_MESSAGE = 'This field must be a number';

/** A field's value in a form: text, a list of texts (codes), or {name, value} pairs. */
export const fieldValueSchema = z.union([z.string(), z.array(z.string()), z.array(z.object({ name: z.string(), value: z.string() }))]);

/** The part of a list item's form value that its type's fields make (a check, a scraper entry). */
export const itemFieldsShape = {
  /** The values of the type's form fields that the form can show. */
  fields: z.record(z.string(), fieldValueSchema.optional()),
  /** Every other key of the item as written (test, display, labels, fields the form cannot show), kept unchanged. */
  rest: z.record(z.string(), z.unknown()),
};
const itemFieldsSchema = z.object(itemFieldsShape);
export type ItemFieldValues = z.infer<typeof itemFieldsSchema>;

const checkValueSchema = z.object({ type: z.string(), name: z.string(), description: z.string(), ...itemFieldsShape });
export type CheckFormValue = z.infer<typeof checkValueSchema>;

export function isBlank(value: FormFieldValue | undefined): boolean {
  if (value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  return value.length === 0;
}

/**
 * Spec §3 and §5: required fields say 'This field is required', number fields must hold numbers. Fields
 * kept as written (in `rest`) and hidden ones are not checked.
 */
export function fieldProblems(fields: readonly CheckField[], item: ItemFieldValues, ctx: z.RefinementCtx, index: number): void {
  for (const field of fields) {
    if (Object.hasOwn(item.rest, field.name) || !isVisible(field, item.fields)) continue;
    const value = item.fields[field.name];
    if (field.required && isBlank(value)) ctx.addIssue({ code: 'custom', path: [index, 'fields', field.name], message: REQUIRED });
    if (field.kind === 'number' && typeof value === 'string' && value.trim() !== '' && !/^-?\d+$/.test(value.trim())) {
      ctx.addIssue({ code: 'custom', path: [index, 'fields', field.name], message: NUMBER_MESSAGE });
    }
  }
}

function checkProblems(check: CheckFormValue, ctx: z.RefinementCtx, index: number): void {
  if (check.name.trim() === '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
  fieldProblems(checkForm(check.type) ?? [], check, ctx, index);
}

/**
 * What every resource form has besides its list (spec §3 "Resource spec form values"; §5: the name is
 * required). Each list checks its own rows, so every message shows at once, whatever else is wrong.
 */
export const resourceFormShape = {
  name: z.string().trim().min(1, REQUIRED),
  namespace: z.string(),
  labels: z.array(z.object({ name: z.string(), value: z.string() })).superRefine((labels, ctx) => {
    labels.forEach((label, index) => {
      if (label.name.trim() === '' && label.value.trim() !== '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
    });
  }),
  schedule: z.string(),
  /** Spec keys besides the schedule and the list the form shows (env, retention, types it has no form for…), kept unchanged. */
  specRest: z.record(z.string(), z.unknown()),
};
const resourceFormSchema = z.object(resourceFormShape);
export type ResourceFormValues = z.infer<typeof resourceFormSchema>;

/** The canary form: the resource's fields and its checks. */
export const canaryFormSchema = z.object({
  ...resourceFormShape,
  checks: z.array(checkValueSchema).superRefine((checks, ctx) => checks.forEach((check, index) => checkProblems(check, ctx, index))),
});
export type CanaryFormValues = z.infer<typeof canaryFormSchema>;

/** The form value of one field as written, or undefined when the form cannot show it as it is. */
export function readField(field: CheckField, raw: unknown): FormFieldValue | undefined {
  switch (field.kind) {
    case 'text':
    case 'textarea':
      return typeof raw === 'string' ? raw : undefined;
    case 'select':
      return typeof raw === 'string' && (field.options ?? []).includes(raw) ? raw : undefined;
    case 'number':
      return typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : undefined;
    case 'codes':
      return Array.isArray(raw) && raw.every((code) => typeof code === 'number' && Number.isInteger(code)) ? raw.map(String) : undefined;
    case 'lines':
      return Array.isArray(raw) && raw.every((line) => typeof line === 'string' && !line.includes('\n')) ? raw.join('\n') : undefined;
    case 'pairs':
      return Array.isArray(raw) && raw.every((item) => isRecord(item) && Object.keys(item).every((key) => key === 'name' || key === 'value') && typeof item.name === 'string' && typeof item.value === 'string')
        ? raw.map((item) => ({ name: String(item.name), value: String(item.value) }))
        : undefined;
    case 'secret':
      if (typeof raw === 'string') return raw;
      return isRecord(raw) && Object.keys(raw).length === 1 && typeof raw.value === 'string' ? raw.value : undefined;
  }
}

/** The value written for a field, or undefined when it is blank (blank fields are left out). */
export function writeField(field: CheckField, value: FormFieldValue | undefined): unknown {
  if (value === undefined || isBlank(value)) return undefined;
  switch (field.kind) {
    case 'number':
      return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
    case 'codes':
      return Array.isArray(value) ? value.map(Number).sort((a, b) => a - b) : undefined;
    case 'lines':
      return typeof value === 'string' ? value.split('\n').map((line) => line.trim()).filter(Boolean) : undefined;
    case 'pairs':
      return Array.isArray(value) ? value.filter((pair) => typeof pair !== 'string' && pair.name.trim() !== '') : undefined;
    case 'secret':
      return { value };
    default:
      return typeof value === 'string' ? value : undefined;
  }
}

/** A field's value when nothing is written (inputs stay controlled). */
export function emptyValue(field: CheckField): FormFieldValue {
  return field.kind === 'codes' || field.kind === 'pairs' ? [] : '';
}

/** The values a new item of a type starts with (spec §3: Redis db 0). */
export function initialFields(fields: readonly CheckField[]): Record<string, FormFieldValue> {
  const values: Record<string, FormFieldValue> = {};
  for (const field of fields) values[field.name] = field.initial ?? emptyValue(field);
  return values;
}

/** A new canary's schedule until the person picks another (one of spec §9's resource schedule options). */
export const DEFAULT_SCHEDULE = '@every 5m';

/** A new canary: empty, in the default namespace, on the default schedule, with one check of the picked type. */
export function newCanaryForm(type: string | undefined): CanaryFormValues {
  return { name: '', namespace: DEFAULT_NAMESPACE, labels: [], schedule: DEFAULT_SCHEDULE, checks: type ? [newCheck(type)] : [], specRest: {} };
}

/** A new check of a type, with the type's initial values. */
export function newCheck(type: string, name = ''): CheckFormValue {
  return { type, name, description: '', fields: initialFields(checkForm(type) ?? []), rest: {} };
}

/**
 * The form fields of an item as written: each field the form can show is taken out of `rest` (what is
 * left is kept unchanged); one it cannot show as written stays there.
 */
export function readFields(fields: readonly CheckField[], item: Record<string, unknown>, rest: Record<string, unknown>): ItemFieldValues['fields'] {
  const values: ItemFieldValues['fields'] = {};
  for (const field of fields) {
    const key = !Object.hasOwn(item, field.name) && field.legacy && Object.hasOwn(item, field.legacy) ? field.legacy : field.name;
    if (!Object.hasOwn(item, key)) {
      values[field.name] = emptyValue(field);
      continue;
    }
    const read = readField(field, item[key]);
    if (read === undefined) continue;
    values[field.name] = read;
    delete rest[key];
  }
  return values;
}

/** An item as written from its form fields (blank and hidden ones left out), then the keys kept as written. */
export function writeFields(fields: readonly CheckField[], value: ItemFieldValues, leading: Record<string, unknown> = {}): Record<string, unknown> {
  const item: Record<string, unknown> = { ...leading };
  for (const field of fields) {
    if (Object.hasOwn(value.rest, field.name) || !isVisible(field, value.fields)) continue;
    const written = writeField(field, value.fields[field.name]);
    if (written !== undefined) item[field.name] = written;
  }
  return { ...item, ...value.rest };
}

function checkToForm(type: string, raw: unknown): CheckFormValue {
  const item = isRecord(raw) ? raw : {};
  const rest: Record<string, unknown> = { ...item };
  const value: CheckFormValue = { type, name: '', description: '', fields: {}, rest };
  for (const key of ['name', 'description'] as const) {
    if (typeof item[key] === 'string') {
      value[key] = item[key];
      delete rest[key];
    }
  }
  value.fields = readFields(checkForm(type) ?? [], item, rest);
  return value;
}

/**
 * The resource fields of a document's form and its list items: `itemsOf` answers the items of a spec key
 * the form lists (or undefined to keep the key as written); the schedule is a field of its own.
 */
export function documentFormParts<T>(doc: CanaryDocument, itemsOf: (key: string, value: unknown) => T[] | undefined): { values: ResourceFormValues; items: T[] } {
  const specRest: Record<string, unknown> = {};
  const items: T[] = [];
  let schedule = '';
  for (const [key, value] of Object.entries(doc.spec)) {
    const listed = key === 'schedule' ? undefined : itemsOf(key, value);
    if (key === 'schedule' && typeof value === 'string') schedule = value;
    else if (listed) items.push(...listed);
    else specRest[key] = value;
  }
  const labels = Object.entries(doc.labels).map(([name, value]) => ({ name, value }));
  return { values: { name: doc.name, namespace: doc.namespace, labels, schedule, specRest }, items };
}

/**
 * The document of a form: the schedule first, the kept keys, then one list per type in the order the
 * types first appear. `single` types (webhook) are written as one mapping when they have one item.
 */
export function formDocument<T extends { type: string }>(
  values: ResourceFormValues,
  items: readonly T[],
  itemToSpec: (item: T) => Record<string, unknown>,
  single: readonly string[] = [],
): CanaryDocument {
  const spec: Record<string, unknown> = {};
  if (values.schedule.trim() !== '') spec.schedule = values.schedule.trim();
  Object.assign(spec, values.specRest);
  const byType = new Map<string, Array<Record<string, unknown>>>();
  for (const item of items) byType.set(item.type, [...(byType.get(item.type) ?? []), itemToSpec(item)]);
  for (const [type, written] of byType) spec[type] = single.includes(type) && written.length === 1 ? written[0] : written;
  const labels: Record<string, string> = {};
  for (const label of values.labels) if (label.name.trim() !== '') labels[label.name.trim()] = label.value;
  return { name: values.name.trim(), namespace: values.namespace.trim() || DEFAULT_NAMESPACE, labels, spec };
}

/**
 * The form of a document. `types` are the check types the server runs (GET /api/canary/about): their
 * lists become the form's checks; every other key of the spec is kept as written.
 */
export function documentToForm(doc: CanaryDocument, types: readonly string[]): CanaryFormValues {
  const { values, items } = documentFormParts(doc, (key, value) =>
    !CANARY_FIELDS.includes(key) && types.includes(key) && (Array.isArray(value) || isRecord(value))
      ? (Array.isArray(value) ? value : [value]).map((item) => checkToForm(key, item))
      : undefined,
  );
  return { ...values, checks: items };
}

function checkToSpec(check: CheckFormValue): Record<string, unknown> {
  return writeFields(checkForm(check.type) ?? [], check, { name: check.name.trim(), ...(check.description.trim() !== '' ? { description: check.description } : {}) });
}

/**
 * The document of a form. `pushTypes` (webhook) are written as one mapping, as canary-checker writes them.
 */
export function formToDocument(values: CanaryFormValues, pushTypes: readonly string[] = []): CanaryDocument {
  return formDocument(values, values.checks, checkToSpec, pushTypes);
}

/**
 * Where a check of the spec sits in the form: the n-th check of a type is the n-th form check of that
 * type (the form keeps checks grouped by type in writing order).
 */
export function formIndexOf(checks: readonly Pick<CheckFormValue, 'type'>[], type: string, typeIndex: number): number | undefined {
  let seen = 0;
  for (const [index, check] of checks.entries()) {
    if (check.type !== type) continue;
    if (seen === typeIndex) return index;
    seen += 1;
  }
  return undefined;
}
