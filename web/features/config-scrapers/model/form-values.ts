import { z } from 'zod';
import {
  documentFormParts,
  fieldProblems,
  formDocument,
  initialFields,
  itemFieldsShape,
  readFields,
  resourceFormShape,
  writeFields,
} from '@web/features/canaries/model/form-values';
import { DEFAULT_NAMESPACE, isRecord } from '@web/features/canaries/model/document';
import type { ScraperDocument } from './document';
import { entryForm } from './entry-forms';
import { SCRAPER_SPEC_FIELDS } from './scraper-types';

/** A new scraper's schedule until the person picks another: the server's default, one of spec §9's scraper presets. */
export const DEFAULT_SCRAPER_SCHEDULE = '@hourly';

const entryValueSchema = z.object({
  /** The scraper type: the key under spec (file, sql, …). */
  type: z.string(),
  ...itemFieldsShape,
});
export type EntryFormValue = z.infer<typeof entryValueSchema>;

/** The scraper form (the canary form's resource fields), its list being the entries of the spec by type. */
export const scraperFormSchema = z.object({
  ...resourceFormShape,
  entries: z.array(entryValueSchema).superRefine((entries, ctx) => entries.forEach((entry, index) => fieldProblems(entryForm(entry.type) ?? [], entry, ctx, index))),
});
export type ScraperFormValues = z.infer<typeof scraperFormSchema>;

/** A new entry of a scraper type, with the type's initial values. */
export function newEntry(type: string): EntryFormValue {
  return { type, fields: initialFields(entryForm(type) ?? []), rest: {} };
}

function entryToForm(type: string, raw: unknown): EntryFormValue {
  const item = isRecord(raw) ? raw : {};
  const rest: Record<string, unknown> = { ...item };
  return { type, fields: readFields(entryForm(type) ?? [], item, rest), rest };
}

/**
 * The form of a document. `types` are the scraper types the server runs (the schema endpoint): their
 * lists become the form's entries; every other key of the spec is kept as written.
 */
export function documentToForm(doc: ScraperDocument, types: readonly string[]): ScraperFormValues {
  const { values, items } = documentFormParts(doc, (key, value) =>
    !SCRAPER_SPEC_FIELDS.includes(key) && types.includes(key) && Array.isArray(value) ? value.map((item) => entryToForm(key, item)) : undefined,
  );
  return { ...values, entries: items };
}

/** The document of a form: the schedule first, the kept keys, then one list per type in the order the types first appear. */
export function formToDocument(values: ScraperFormValues): ScraperDocument {
  return formDocument(values, values.entries, (entry) => writeFields(entryForm(entry.type) ?? [], entry));
}

/** A new scraper: empty, in the default namespace, on the default schedule, with one entry of the picked type. */
export function newScraperForm(type: string | undefined): ScraperFormValues {
  return { name: '', namespace: DEFAULT_NAMESPACE, labels: [], schedule: DEFAULT_SCRAPER_SCHEDULE, entries: type ? [newEntry(type)] : [], specRest: {} };
}
