import { MASK } from '@common/connections';
import { nameProblem } from '@common/names';
import type { JsonValue, ResourceWrite } from '@web/features/settings/resources/form-values';
import { valueToText, type ResourceRow } from '@web/features/settings/resources/values';

/** One key of a secret or config map in the form; `stored` marks a secret key whose value is kept unless retyped. */
export interface DataPair {
  key: string;
  value: string;
  stored: boolean;
}

export interface DataForm {
  name: string;
  namespace: string;
  data: DataPair[];
  labels: Array<{ key: string; value: string }>;
}

function textArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function textRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, valueToText(item)]));
}

/**
 * The form of a row: a secret's keys come without values (the server never answers them), a config map's
 * with theirs.
 */
export function initialDataForm(row: ResourceRow | null, secret: boolean): DataForm {
  if (!row) return { name: '', namespace: 'default', data: [{ key: '', value: '', stored: false }], labels: [] };
  const values = textRecord(row.data);
  const keys = secret ? textArray(row.keys) : Object.keys(values).length > 0 ? Object.keys(values) : textArray(row.keys);
  return {
    name: valueToText(row.name),
    namespace: valueToText(row.namespace) || 'default',
    data: keys.map((key) => (secret ? { key, value: '', stored: true } : { key, value: values[key] ?? '', stored: false })),
    labels: Object.entries(textRecord(row.labels)).map(([key, value]) => ({ key, value })),
  };
}

export type DataProblems = Partial<Record<'name' | 'namespace' | 'data' | 'labels', string>>;

function pairsProblem(pairs: ReadonlyArray<{ key: string; value: string }>, what: string): string | undefined {
  if (pairs.some((pair) => pair.key.trim() === '' && pair.value !== '')) return `Every ${what} value needs a key`;
  const keys = pairs.map((pair) => pair.key.trim()).filter(Boolean);
  const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
  if (repeated) return `The key "${repeated}" is given twice`;
  if (what === 'data' && keys.some((key) => !/^[-._a-zA-Z0-9]+$/.test(key))) return 'Keys are letters, digits, -, _ and . only';
  return undefined;
}

/** `existing`: a saved secret's name and namespace do not change, so they are not checked again. */
export function dataFormProblems(form: DataForm, existing = false): DataProblems {
  const problems: DataProblems = {};
  if (form.name.trim() === '') problems.name = 'This field is required';
  else if (!existing) {
    // The server's rule (docs/RESOURCES.md "Names"): a DNS-1123 name, with the same message.
    const problem = nameProblem(form.name.trim(), 'name');
    if (problem) problems.name = problem;
  }
  if (form.namespace.trim() === '') problems.namespace = 'This field is required';
  else if (!existing) {
    const problem = nameProblem(form.namespace.trim(), 'namespace');
    if (problem) problems.namespace = problem;
  }
  const data = pairsProblem(form.data, 'data');
  if (data) problems.data = data;
  const labels = pairsProblem(form.labels, 'label');
  if (labels) problems.labels = labels;
  return problems;
}

/**
 * The write of POST (name, namespace, data, labels) or PATCH (data, labels): a stored secret key left
 * blank is sent as the mask, which keeps its value; a key removed from the list is left out.
 */
export function dataFormToWrite(form: DataForm, existing: boolean): ResourceWrite {
  const data: Record<string, JsonValue> = {};
  for (const pair of form.data) {
    const key = pair.key.trim();
    if (key === '') continue;
    data[key] = pair.stored && (pair.value === '' || pair.value === MASK) ? MASK : pair.value;
  }
  const labels: Record<string, JsonValue> = Object.fromEntries(form.labels.filter((pair) => pair.key.trim() !== '').map((pair) => [pair.key.trim(), pair.value]));
  return existing ? { data, labels } : { name: form.name.trim(), namespace: form.namespace.trim(), data, labels };
}
