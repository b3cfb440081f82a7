import { renderTemplate } from '../../platform/expressions';
import type { Queryable } from '../../platform/jobs/db';
import type { ParameterSpec } from './spec';

/** The messages of spec §5 (the Run dialog shows the same ones). */
export const PARAMETER_MESSAGES = {
  required: 'This field is required',
  number: 'This field must be a number',
  bytes: 'This field must be a size in Mi, Gi or Ti, such as 512Mi or 2Gi',
  millicores: 'This field must be millicores with an m suffix, such as 500m',
  dns1123: 'This field must be lowercase letters, digits, "-" and ".", starting and ending with a letter or digit',
  checkbox: 'This field must be true or false',
  uuid: 'This field must be an id',
} as const;

export const BYTES_PATTERN = /^\d+(\.\d+)?(Mi|Gi|Ti)$/;
export const MILLICORES_PATTERN = /^\d+m$/;
export const DNS1123_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Problem = { path: string; message: string };

function listOptions(parameter: ParameterSpec): string[] {
  const options = parameter.properties?.options;
  if (!Array.isArray(options)) return [];
  return options.map((option) => (option && typeof option === 'object' ? String(Reflect.get(option, 'value') ?? Reflect.get(option, 'label') ?? '') : String(option)));
}

/** A parameter's value as text (numbers and booleans from JSON bodies included). */
export function parameterText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One value against its parameter's rules; undefined when it is fine. Empty optional values are fine. */
export function parameterProblem(parameter: ParameterSpec, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return parameter.required ? PARAMETER_MESSAGES.required : undefined;
  const text = value;
  const properties = parameter.properties ?? {};
  switch (parameter.type) {
    case 'number':
      return Number.isFinite(Number(text.trim())) ? undefined : PARAMETER_MESSAGES.number;
    case 'bytes':
      return BYTES_PATTERN.test(text.trim()) ? undefined : PARAMETER_MESSAGES.bytes;
    case 'millicores':
      return MILLICORES_PATTERN.test(text.trim()) ? undefined : PARAMETER_MESSAGES.millicores;
    case 'dns1123':
      return DNS1123_PATTERN.test(text) && text.length <= 253 ? undefined : PARAMETER_MESSAGES.dns1123;
    case 'checkbox':
      return text === 'true' || text === 'false' ? undefined : PARAMETER_MESSAGES.checkbox;
    case 'list': {
      const options = listOptions(parameter);
      return options.length === 0 || options.includes(text) ? undefined : `This field must be one of ${options.join(', ')}`;
    }
    case 'people':
    case 'team':
    case 'config':
    case 'component':
    case 'check':
      return UUID.test(text.trim()) ? undefined : PARAMETER_MESSAGES.uuid;
    default: {
      const min = Number(properties.minLength);
      const max = Number(properties.maxLength);
      if (Number.isFinite(min) && min > 0 && text.length < min) return `This field must be at least ${min} characters`;
      if (Number.isFinite(max) && max > 0 && text.length > max) return `This field must be at most ${max} characters`;
      if (typeof properties.regex === 'string') {
        try {
          if (!new RegExp(properties.regex).test(text)) return `This field must match ${properties.regex}`;
        } catch {
          return undefined;
        }
      }
      return undefined;
    }
  }
}

const REFERENCE_TABLES: Partial<Record<string, string>> = { people: 'people', team: 'teams', config: 'config_items', component: 'components', check: 'checks' };

/**
 * Checks the parameters of a run request: every problem at `body.params.<name>`. Values not named by the
 * playbook are refused (a typo would otherwise be dropped in silence); ids must name live rows, and a config
 * parameter with properties.filter.types a config of those types.
 */
export async function checkParameters(db: Queryable, parameters: readonly ParameterSpec[], values: Record<string, string>): Promise<Problem[]> {
  const problems: Problem[] = [];
  const known = new Set(parameters.map((parameter) => parameter.name));
  for (const name of Object.keys(values)) {
    if (!known.has(name)) problems.push({ path: `body.params.${name}`, message: `is not a parameter of this playbook (${[...known].join(', ') || 'it has none'})` });
  }
  for (const parameter of parameters) {
    const value = values[parameter.name];
    // A parameter that depends on others is asked for only once they have values.
    if (parameter.dependsOn?.some((name) => known.has(name) && (values[name] ?? '').trim() === '')) continue;
    const problem = parameterProblem(parameter, value);
    if (problem) {
      problems.push({ path: `body.params.${parameter.name}`, message: problem });
      continue;
    }
    const table = parameter.type ? REFERENCE_TABLES[parameter.type] : undefined;
    if (table && value && value.trim() !== '') {
      const { rows } = await db.query<{ type: string | null }>(`SELECT ${table === 'people' || table === 'teams' ? 'NULL::text' : 'type'} AS type FROM ${table} WHERE id = $1 AND deleted_at IS NULL`, [value.trim()]);
      const row = rows[0];
      if (!row) problems.push({ path: `body.params.${parameter.name}`, message: `no ${parameter.type === 'people' ? 'person' : parameter.type} with this id` });
      // properties.filter: {types: […]} or, as Mission Control writes it, a list of selectors [{types: […]}, …].
      const filter = parameter.properties?.filter;
      const types = (Array.isArray(filter) ? filter : [filter]).flatMap((item) => {
        const listed: unknown = item && typeof item === 'object' ? Reflect.get(item, 'types') : undefined;
        return Array.isArray(listed) ? listed : [];
      });
      if (row && parameter.type === 'config' && Array.isArray(types) && types.length > 0 && !types.map(String).includes(row.type ?? '')) {
        problems.push({ path: `body.params.${parameter.name}`, message: `must be a config of type ${types.map(String).join(' or ')}` });
      }
    }
  }
  return problems;
}

/** A parameter's default rendered for the resource (a Go template over .config, .component, .check, .user). */
export function renderDefault(parameter: ParameterSpec, data: Record<string, unknown>): string | undefined {
  if (parameter.default === undefined) return undefined;
  if (!parameter.default.includes('{{')) return parameter.default;
  try {
    return renderTemplate(`parameter ${parameter.name} default`, parameter.default, data);
  } catch {
    return '';
  }
}

/** The values a run uses: what was given, else the rendered default (checkbox: false). */
export function withDefaults(parameters: readonly ParameterSpec[], given: Record<string, string>, data: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const parameter of parameters) {
    const value = given[parameter.name];
    if (value !== undefined && value !== '') out[parameter.name] = value;
    else {
      const fallback = renderDefault(parameter, data);
      if (fallback !== undefined) out[parameter.name] = fallback;
      else if (parameter.type === 'checkbox') out[parameter.name] = 'false';
    }
  }
  return out;
}
