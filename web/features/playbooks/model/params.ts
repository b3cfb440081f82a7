import { REQUIRED } from '@web/lib/validation';
import type { PlaybookParam } from '../api/schema';

/** Spec §5 message of a number parameter that holds something else. */
export const NUMBER_MESSAGE = 'This field must be a number';
export const BYTES_MESSAGE = 'Must be a size in Mi, Gi or Ti, e.g. 512Mi';
export const MILLICORES_MESSAGE = 'Must be millicores with an m suffix, e.g. 500m';
export const DNS1123_MESSAGE = "Must be lowercase letters, digits, '-' and '.', starting and ending with a letter or digit";

const NUMBER = /^-?\d+(\.\d+)?$/;
/** Spec §5: bytes params take Mi/Gi/Ti units. */
const BYTES = /^\d+(\.\d+)?(Mi|Gi|Ti)$/;
/** Spec §5: millicores params take an m suffix. */
const MILLICORES = /^\d+m$/;
/** Spec §5: lowercase alphanumeric, dash and dot (RFC 1123 subdomain). */
const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The parameter's type; anything unknown is read as text (as the server does). */
export function paramType(param: Pick<PlaybookParam, 'type'>): string {
  return param.type?.trim() || 'text';
}

export function paramLabel(param: Pick<PlaybookParam, 'name' | 'label'>): string {
  return param.label?.trim() || param.name;
}

function prop(param: PlaybookParam, key: string): unknown {
  return param.properties?.[key];
}

function numberProp(param: PlaybookParam, key: string): number | undefined {
  const value = prop(param, key);
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

export function isMultiline(param: PlaybookParam): boolean {
  const value = prop(param, 'multiline');
  return value === true || value === 'true';
}

export interface ListOption {
  label: string;
  value: string;
}

/** A list parameter's options ([{label, value}], or plain texts). */
export function listOptions(param: PlaybookParam): ListOption[] {
  const options = prop(param, 'options');
  if (!Array.isArray(options)) return [];
  const out: ListOption[] = [];
  for (const option of options) {
    if (typeof option === 'string' || typeof option === 'number') out.push({ label: String(option), value: String(option) });
    else if (option && typeof option === 'object') {
      const value: unknown = Reflect.get(option, 'value');
      const label: unknown = Reflect.get(option, 'label');
      if (typeof value === 'string' || typeof value === 'number') out.push({ value: String(value), label: typeof label === 'string' && label !== '' ? label : String(value) });
    }
  }
  return out;
}

/** The config types a config parameter may pick (properties.filter.types). */
export function configTypes(param: PlaybookParam): string[] {
  const filter = prop(param, 'filter');
  if (!filter || typeof filter !== 'object') return [];
  const types: unknown = Reflect.get(filter, 'types');
  return Array.isArray(types) ? types.filter((type): type is string => typeof type === 'string') : [];
}

/**
 * Spec §5: the message of one parameter's value, or undefined when it is fine. Values are texts, as
 * POST /api/playbook/run takes them; a blank optional value is not checked further.
 */
export function paramProblem(param: PlaybookParam, value: string): string | undefined {
  const type = paramType(param);
  const blank = type === 'checkbox' ? false : value.trim() === '';
  if (blank) return param.required ? REQUIRED : undefined;
  const trimmed = value.trim();
  switch (type) {
    case 'number':
      return NUMBER.test(trimmed) ? undefined : NUMBER_MESSAGE;
    case 'bytes':
      return BYTES.test(trimmed) ? undefined : BYTES_MESSAGE;
    case 'millicores':
      return MILLICORES.test(trimmed) ? undefined : MILLICORES_MESSAGE;
    case 'dns1123':
      return DNS1123.test(trimmed) && trimmed.length <= 253 ? undefined : DNS1123_MESSAGE;
    case 'list': {
      const options = listOptions(param);
      return options.length === 0 || options.some((option) => option.value === value) ? undefined : 'Pick one of the options';
    }
    case 'text': {
      // Spec §5: (multiline) text params use min/max length and a regex.
      const min = numberProp(param, 'minLength');
      const max = numberProp(param, 'maxLength');
      if (min !== undefined && value.length < min) return `Must be at least ${min} characters`;
      if (max !== undefined && value.length > max) return `Must be at most ${max} characters`;
      const regex = prop(param, 'regex');
      if (typeof regex === 'string' && regex !== '') {
        try {
          if (!new RegExp(regex).test(value)) return `Must match the pattern ${regex}`;
        } catch {
          // The server refuses a playbook whose regex does not compile; nothing to check against here.
        }
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The value a field starts with: the (rendered) default, 'false' for a checkbox. */
export function initialValue(param: PlaybookParam): string {
  if (param.default !== undefined) return param.default;
  return paramType(param) === 'checkbox' ? 'false' : '';
}

/** Form keys by position: parameter names may hold dots, which a form library reads as nesting. */
export const fieldKey = (index: number) => `p${index}`;

/** Every parameter's message, by field key. */
/**
 * Whether a parameter waits for others (`dependsOn`): it is shown, checked and sent only once every parameter
 * it names has a value, as the server checks it.
 */
export function paramWaits(params: readonly PlaybookParam[], values: Readonly<Record<string, string | undefined>>, index: number): boolean {
  const names = params[index]?.dependsOn ?? [];
  return names.some((name) => {
    const at = params.findIndex((param) => param.name === name);
    return at >= 0 && (values[fieldKey(at)] ?? '').trim() === '';
  });
}

export function paramsProblems(params: readonly PlaybookParam[], values: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  params.forEach((param, index) => {
    if (paramWaits(params, values, index)) return;
    const message = paramProblem(param, values[fieldKey(index)] ?? '');
    if (message) out[fieldKey(index)] = message;
  });
  return out;
}

/** The body's params: name → value; blank optional values are left out so the server's defaults apply. */
export function paramsBody(params: readonly PlaybookParam[], values: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  params.forEach((param, index) => {
    if (paramWaits(params, values, index)) return;
    const value = values[fieldKey(index)] ?? '';
    if (value === '' && paramType(param) !== 'checkbox') return;
    out[param.name] = value;
  });
  return out;
}

/** What a playbook runs on, from its spec's selectors (spec.configs, spec.components, spec.checks). */
export type TargetKind = 'config' | 'component' | 'check';
export const TARGET_KINDS: readonly TargetKind[] = ['config', 'component', 'check'];
const TARGET_KEYS: Record<TargetKind, string> = { config: 'configs', component: 'components', check: 'checks' };

export function targetKinds(spec: Record<string, unknown> | null | undefined): TargetKind[] {
  if (!spec) return [];
  return TARGET_KINDS.filter((kind) => {
    const selectors = spec[TARGET_KEYS[kind]];
    return Array.isArray(selectors) && selectors.length > 0;
  });
}

/** The types a spec's selectors of one kind name (type, types), for narrowing the resource search. */
export function targetTypes(spec: Record<string, unknown> | null | undefined, kind: TargetKind): string[] {
  const selectors = spec?.[TARGET_KEYS[kind]];
  if (!Array.isArray(selectors)) return [];
  const out = new Set<string>();
  for (const selector of selectors) {
    if (!selector || typeof selector !== 'object') continue;
    const type: unknown = Reflect.get(selector, 'type');
    const types: unknown = Reflect.get(selector, 'types');
    // A selector without a type matches every type: then no narrowing at all.
    if (typeof type !== 'string' && !Array.isArray(types)) return [];
    if (typeof type === 'string') out.add(type);
    if (Array.isArray(types)) for (const item of types) if (typeof item === 'string') out.add(item);
  }
  return [...out];
}

/** The resource a run is asked on. */
export interface RunTarget {
  kind: TargetKind;
  id: string;
  name?: string | undefined;
}

export function targetQuery(target: RunTarget | undefined): Record<string, string> {
  if (!target) return {};
  return { [`${target.kind}_id`]: target.id };
}
