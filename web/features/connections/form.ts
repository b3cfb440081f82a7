import {
  connectionProblems,
  fieldValue,
  isTextTarget,
  MASK,
  parseValueReference,
  type ConnectionField,
  type ConnectionInput,
  type ConnectionTypeDef,
} from '@common/connections';
import type { ConnectionRow } from './schema';

/** Where a secret field's value comes from (spec §3: a static value, a secret or a config map reference). */
export type SecretMode = 'static' | 'secret' | 'configmap';

export interface SecretValue {
  mode: SecretMode;
  /** The static value typed in this form (never one read back: the server answers only the mask). */
  text: string;
  /** The referred secret or config map and its key. */
  refName: string;
  refKey: string;
  /**
   * A static value is stored and this form has not replaced it: it is sent as the mask, which keeps it.
   * Cleared by "Change".
   */
  kept: boolean;
}

export interface ConnectionFormValues {
  name: string;
  namespace: string;
  /** Text of each non-secret field by its key ('true' or '' for checkboxes). */
  fields: Record<string, string>;
  secrets: Record<string, SecretValue>;
}

export const DEFAULT_NAMESPACE = 'default';

export const emptySecret = (): SecretValue => ({ mode: 'static', text: '', refName: '', refKey: '', kept: false });

/** A stored secret field as the form shows it: the mask is a kept value, a reference its name and key. */
export function secretFromStored(stored: string): SecretValue {
  if (stored === '') return emptySecret();
  if (stored === MASK) return { ...emptySecret(), kept: true };
  const ref = parseValueReference(stored);
  if (ref && (ref.kind === 'secret' || ref.kind === 'configmap')) return { mode: ref.kind, text: '', refName: ref.name, refKey: ref.key, kept: false };
  // Anything else the server answers for a secret field is shown as set, never echoed into an input.
  return { ...emptySecret(), kept: true };
}

function rowAsInput(row: ConnectionRow): Pick<ConnectionInput, 'url' | 'username' | 'password' | 'certificate' | 'insecure_tls' | 'properties'> {
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(row.properties ?? {})) {
    if (typeof value === 'string') properties[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') properties[key] = String(value);
  }
  return {
    url: row.url ?? undefined,
    username: row.username ?? undefined,
    password: row.password ?? undefined,
    certificate: row.certificate ?? undefined,
    insecure_tls: row.insecure_tls ?? false,
    properties,
  };
}

/** A new form has the type's defaults; an existing row's values are shown as the server answered them. */
export function initialFormValues(def: ConnectionTypeDef, row: ConnectionRow | null): ConnectionFormValues {
  const fields: Record<string, string> = {};
  const secrets: Record<string, SecretValue> = {};
  const stored = row ? rowAsInput(row) : null;
  for (const field of def.fields) {
    const value = stored ? fieldValue(stored, field) : (field.default ?? '');
    if (field.input === 'secret') secrets[field.key] = stored ? secretFromStored(value) : emptySecret();
    else if (field.input === 'checkbox') fields[field.key] = value === 'true' ? 'true' : '';
    else fields[field.key] = value;
  }
  return { name: row?.name ?? '', namespace: row?.namespace ?? DEFAULT_NAMESPACE, fields, secrets };
}

/** What a secret field sends: the mask keeps a stored value; a reference is written as its text. */
export function secretText(value: SecretValue): string {
  if (value.kept) return MASK;
  if (value.mode === 'static') return value.text;
  const name = value.refName.trim();
  const key = value.refKey.trim();
  if (name === '' && key === '') return '';
  return `${value.mode}://${name}/${key}`;
}

function fieldText(field: ConnectionField, values: ConnectionFormValues): string {
  if (field.input === 'secret') return secretText(values.secrets[field.key] ?? emptySecret());
  const text = values.fields[field.key] ?? '';
  if (field.input === 'checkbox') return text === 'true' ? 'true' : '';
  return field.input === 'textarea' ? text : text.trim();
}

/**
 * The body of POST /api/connections (and, without name, namespace and type, of PATCH): each field's
 * value at its target. A blank field is left out of a new connection and sent blank on an update, so
 * clearing it clears it; a kept secret is sent as the mask.
 */
export function formToInput(def: ConnectionTypeDef, values: ConnectionFormValues, existing: boolean): ConnectionInput {
  const input: ConnectionInput = { name: values.name.trim(), namespace: values.namespace.trim(), type: def.type };
  const properties: Record<string, string> = {};
  for (const field of def.fields) {
    const text = fieldText(field, values);
    if (field.target === 'insecure_tls') {
      input.insecure_tls = text === 'true';
      continue;
    }
    if (field.input === 'checkbox') {
      // A checkbox kept in properties is written as a text, 'true' or 'false'.
      properties[field.target.slice('properties.'.length)] = text === 'true' ? 'true' : 'false';
      continue;
    }
    if (text === '' && !existing) continue;
    if (isTextTarget(field.target)) input[field.target] = text;
    else properties[field.target.slice('properties.'.length)] = text;
  }
  if (Object.keys(properties).length > 0 || existing) input.properties = properties;
  return input;
}

/** Which form field a problem's path (`url`, `properties.port`, `name`) belongs to. */
export function problemField(def: ConnectionTypeDef, path: string): string {
  if (path === 'name' || path === 'namespace') return path;
  return def.fields.find((field) => field.target === path || field.key === path)?.key ?? '';
}

/** Problems by form field: 'name', 'namespace' or a field key; '' gathers those no field owns. */
export type FormProblems = Record<string, string>;

export function problemsByField(def: ConnectionTypeDef, problems: ReadonlyArray<{ path: string; message: string }>): FormProblems {
  const out: FormProblems = {};
  for (const problem of problems) {
    const key = problemField(def, problem.path);
    const message = key === 'name' || key === 'namespace' ? `${key === 'name' ? 'Name' : 'Namespace'} ${problem.message}` : problem.message;
    out[key] = out[key] ? `${out[key]}; ${message}` : message;
  }
  return out;
}

/** A reference needs both its name and its key: one without the other is neither a value nor a reference. */
function referenceProblems(def: ConnectionTypeDef, values: ConnectionFormValues): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  for (const field of def.fields) {
    if (field.input !== 'secret') continue;
    const value = values.secrets[field.key];
    if (!value || value.kept || value.mode === 'static') continue;
    const kind = value.mode === 'secret' ? 'secret' : 'config map';
    if (value.refName.trim() === '' && value.refKey.trim() !== '') problems.push({ path: field.key, message: `${field.label}: the ${kind} name is required` });
    else if (value.refName.trim() !== '' && value.refKey.trim() === '') problems.push({ path: field.key, message: `${field.label}: the ${kind} key is required` });
  }
  return problems;
}

/** The form's problems, checked with the same rules as the API (common/connections.ts). */
export function validateForm(def: ConnectionTypeDef, values: ConnectionFormValues): FormProblems {
  const input = formToInput(def, values, false);
  const own = referenceProblems(def, values);
  const owned = new Set(own.map((problem) => problemField(def, problem.path)));
  const shared = connectionProblems(input).filter((problem) => !owned.has(problemField(def, problem.path)));
  return problemsByField(def, [...own, ...shared]);
}

/** The 400 answer's details (`[{path, message}]`), when the error carries them. */
export function answerProblems(data: unknown): Array<{ path: string; message: string }> {
  const details: unknown = data && typeof data === 'object' ? Reflect.get(data, 'details') : undefined;
  if (!Array.isArray(details)) return [];
  return details.flatMap((item: unknown) => {
    if (!item || typeof item !== 'object') return [];
    const path: unknown = Reflect.get(item, 'path');
    const message: unknown = Reflect.get(item, 'message');
    const text = Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path : '';
    // The API names where in the request a problem is (`body.url`); the form knows the body only.
    return typeof message === 'string' ? [{ path: text.replace(/^body\./, ''), message }] : [];
  });
}

/**
 * The body of PATCH /api/connections/{id}: the columns whose value this form changed (so a URL answered
 * with its password masked is not written back), and the whole properties object when the type has any.
 * Name, namespace and type never change once created.
 */
export function formToPatch(def: ConnectionTypeDef, initial: ConnectionFormValues, values: ConnectionFormValues): Partial<ConnectionInput> {
  const before = formToInput(def, initial, true);
  const after = formToInput(def, values, true);
  const patch: Partial<ConnectionInput> = {};
  for (const key of ['url', 'username', 'password', 'certificate'] as const) {
    if (after[key] !== undefined && after[key] !== before[key]) patch[key] = after[key];
  }
  if (after.insecure_tls !== undefined && after.insecure_tls !== before.insecure_tls) patch.insecure_tls = after.insecure_tls;
  if (def.fields.some((field) => field.target.startsWith('properties.'))) patch.properties = after.properties ?? {};
  return patch;
}
