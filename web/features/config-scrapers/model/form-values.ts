import { z } from 'zod';
import { isVisible, type CheckField } from '@web/features/canaries/model/check-forms';
import { DEFAULT_NAMESPACE, isRecord } from '@web/features/canaries/model/document';
import { emptyValue, fieldValueSchema, isBlank, NUMBER_MESSAGE, readField, writeField } from '@web/features/canaries/model/form-values';
import { REQUIRED } from '@web/lib/validation';
import type { ScraperDocument } from './document';
import { entryForm } from './entry-forms';
import { SCRAPER_SPEC_FIELDS } from './scraper-types';

/** A new scraper's schedule until the person picks another: the server's default, one of spec §9's scraper presets. */
export const DEFAULT_SCRAPER_SCHEDULE = '@hourly';

const entryValueSchema = z.object({
  /** The scraper type: the key under spec (file, sql, …). */
  type: z.string(),
  /** The values of the type's form fields that the form can show. */
  fields: z.record(z.string(), fieldValueSchema.optional()),
  /** Every other key of the entry as written (transform, tags, a secret from valueFrom…), kept unchanged. */
  rest: z.record(z.string(), z.unknown()),
});
export type EntryFormValue = z.infer<typeof entryValueSchema>;

/** Spec §3 and §5: required fields say 'This field is required', number fields must hold numbers. */
function entryProblems(entry: EntryFormValue, ctx: z.RefinementCtx, index: number): void {
  for (const field of entryForm(entry.type) ?? []) {
    if (Object.hasOwn(entry.rest, field.name) || !isVisible(field, entry.fields)) continue;
    const value = entry.fields[field.name];
    if (field.required && isBlank(value)) ctx.addIssue({ code: 'custom', path: [index, 'fields', field.name], message: REQUIRED });
    if (field.kind === 'number' && typeof value === 'string' && value.trim() !== '' && !/^-?\d+$/.test(value.trim())) {
      ctx.addIssue({ code: 'custom', path: [index, 'fields', field.name], message: NUMBER_MESSAGE });
    }
  }
}

/** The scraper form (spec §3 "Resource spec form values"; §5: the name is required). */
export const scraperFormSchema = z.object({
  name: z.string().trim().min(1, REQUIRED),
  namespace: z.string(),
  labels: z.array(z.object({ name: z.string(), value: z.string() })).superRefine((labels, ctx) => {
    labels.forEach((label, index) => {
      if (label.name.trim() === '' && label.value.trim() !== '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
    });
  }),
  schedule: z.string(),
  entries: z.array(entryValueSchema).superRefine((entries, ctx) => entries.forEach((entry, index) => entryProblems(entry, ctx, index))),
  /** Spec keys besides the schedule and the entries the form lists (retention, full, types it has no form for…), kept unchanged. */
  specRest: z.record(z.string(), z.unknown()),
});
export type ScraperFormValues = z.infer<typeof scraperFormSchema>;

function fieldsOf(type: string): readonly CheckField[] {
  return entryForm(type) ?? [];
}

/** A new entry of a scraper type, with the type's initial values. */
export function newEntry(type: string): EntryFormValue {
  const fields: EntryFormValue['fields'] = {};
  for (const field of fieldsOf(type)) fields[field.name] = field.initial ?? emptyValue(field);
  return { type, fields, rest: {} };
}

function entryToForm(type: string, raw: unknown): EntryFormValue {
  const item = isRecord(raw) ? raw : {};
  const rest: Record<string, unknown> = { ...item };
  const value: EntryFormValue = { type, fields: {}, rest };
  for (const field of fieldsOf(type)) {
    if (!Object.hasOwn(item, field.name)) {
      value.fields[field.name] = emptyValue(field);
      continue;
    }
    const read = readField(field, item[field.name]);
    if (read === undefined) continue;
    value.fields[field.name] = read;
    delete rest[field.name];
  }
  return value;
}

function entryToSpec(entry: EntryFormValue): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const field of fieldsOf(entry.type)) {
    if (Object.hasOwn(entry.rest, field.name) || !isVisible(field, entry.fields)) continue;
    const written = writeField(field, entry.fields[field.name]);
    if (written !== undefined) item[field.name] = written;
  }
  return { ...item, ...entry.rest };
}

/**
 * The form of a document. `types` are the scraper types the server runs (the schema endpoint): their
 * lists become the form's entries; every other key of the spec is kept as written.
 */
export function documentToForm(doc: ScraperDocument, types: readonly string[]): ScraperFormValues {
  const specRest: Record<string, unknown> = {};
  const entries: EntryFormValue[] = [];
  let schedule = '';
  for (const [key, value] of Object.entries(doc.spec)) {
    if (key === 'schedule' && typeof value === 'string') schedule = value;
    else if (!SCRAPER_SPEC_FIELDS.includes(key) && types.includes(key) && Array.isArray(value)) {
      for (const item of value) entries.push(entryToForm(key, item));
    } else specRest[key] = value;
  }
  return {
    name: doc.name,
    namespace: doc.namespace,
    labels: Object.entries(doc.labels).map(([name, value]) => ({ name, value })),
    schedule,
    entries,
    specRest,
  };
}

/** The document of a form: the schedule first, the kept keys, then one list per type in the order the types first appear. */
export function formToDocument(values: ScraperFormValues): ScraperDocument {
  const spec: Record<string, unknown> = {};
  if (values.schedule.trim() !== '') spec.schedule = values.schedule.trim();
  Object.assign(spec, values.specRest);
  const byType = new Map<string, Array<Record<string, unknown>>>();
  for (const entry of values.entries) byType.set(entry.type, [...(byType.get(entry.type) ?? []), entryToSpec(entry)]);
  for (const [type, items] of byType) spec[type] = items;
  const labels: Record<string, string> = {};
  for (const label of values.labels) if (label.name.trim() !== '') labels[label.name.trim()] = label.value;
  return { name: values.name.trim(), namespace: values.namespace.trim() || DEFAULT_NAMESPACE, labels, spec };
}

/** The form index of the n-th entry of a type (the form keeps entries grouped by type in writing order). */
export function entryIndexOf(entries: readonly Pick<EntryFormValue, 'type'>[], type: string, typeIndex: number): number | undefined {
  let seen = 0;
  for (const [index, entry] of entries.entries()) {
    if (entry.type !== type) continue;
    if (seen === typeIndex) return index;
    seen += 1;
  }
  return undefined;
}

/** A new scraper: empty, in the default namespace, on the default schedule, with one entry of the picked type. */
export function newScraperForm(type: string | undefined): ScraperFormValues {
  return { name: '', namespace: DEFAULT_NAMESPACE, labels: [], schedule: DEFAULT_SCRAPER_SCHEDULE, entries: type ? [newEntry(type)] : [], specRest: {} };
}
