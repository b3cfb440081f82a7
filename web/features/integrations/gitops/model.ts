import { type Document, parseDocument, stringify } from 'yaml';
import { formatPath, locate, type DocPath } from '@web/features/canaries/model/document';
import type { TextDiagnostic } from '@web/features/canaries/model/diagnostics';
import { validateJson, type JsonSchema } from '@web/features/canaries/model/json-schema';

/** The JSON schema keywords the generated form reads (a chart's values.schema.json). */
export interface ValuesSchema extends JsonSchema {
  title?: string;
  default?: unknown;
  format?: string;
  properties?: Record<string, ValuesSchema> | undefined;
  items?: ValuesSchema | undefined;
}

export type Values = Record<string, unknown>;

/** Spec §9 GitOps defaults. */
export const GITOPS_DEFAULT_NAMESPACE = 'mission-control';
export const GITOPS_INTERVAL = '30m';
/** Spec §2: both preview tabs say it. */
export const FLUX_WARNING = 'You will need to have Kubernetes chart installed in flux to use this option.';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asSchema(value: unknown): ValuesSchema {
  return isRecord(value) ? (value as ValuesSchema) : {};
}

export function schemaType(schema: ValuesSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.enum) return 'string';
  return undefined;
}

/**
 * A chart's starting values: each property's default, nested objects with what their properties give.
 * Empty texts, lists and objects are left out, so a required field without a real default is missing.
 */
export function defaultValues(schema: ValuesSchema): Values {
  const out: Values = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const value = defaultOf(property);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function defaultOf(schema: ValuesSchema): unknown {
  if (schemaType(schema) === 'object' && schema.properties) {
    const nested = defaultValues(schema);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  const value = schema.default;
  if (value === '' || value === null) return undefined;
  if (Array.isArray(value) && value.length === 0) return undefined;
  if (isRecord(value) && Object.keys(value).length === 0) return undefined;
  return value;
}

export function getIn(values: unknown, path: DocPath): unknown {
  let at: unknown = values;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === 'number') at = at[key];
    else if (isRecord(at) && typeof key === 'string') at = Object.hasOwn(at, key) ? at[key] : undefined;
    else return undefined;
  }
  return at;
}

/** A copy of values with the path set; undefined removes the key, and objects left empty go with it. */
export function setIn(values: Values, path: readonly string[], value: unknown): Values {
  const [head, ...rest] = path;
  if (head === undefined) return values;
  const copy: Values = { ...values };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = isRecord(copy[head]) ? copy[head] : {};
  const next = setIn(child, rest, value);
  if (Object.keys(next).length === 0) delete copy[head];
  else copy[head] = next;
  return copy;
}

export function valuesToYaml(values: Values): string {
  return Object.keys(values).length === 0 ? '' : stringify(values, { lineWidth: 0 });
}

export interface ParsedValues {
  values: Values | null;
  yaml: Document;
  diagnostics: TextDiagnostic[];
}

function requiredBlanks(value: unknown, schema: ValuesSchema, path: Array<string | number>): Array<{ path: DocPath; message: string }> {
  if (!isRecord(value)) return [];
  const out: Array<{ path: DocPath; message: string }> = [];
  for (const key of schema.required ?? []) if (value[key] === '') out.push({ path: [...path, key], message: 'is required' });
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (isRecord(value[key])) out.push(...requiredBlanks(value[key], property, [...path, key]));
  }
  return out;
}

/** Every problem of values against the chart's schema, by path ('scraper.name: is required'). */
export function valueProblems(values: Values, schema: ValuesSchema): Array<{ path: DocPath; message: string }> {
  const seen = new Set<string>();
  return [...validateJson(values, schema), ...requiredBlanks(values, schema, [])].filter((problem) => {
    const key = `${formatPath(problem.path)}|${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The Values editor's text: YAML problems, then the schema's, each marked where it is. */
export function parseValues(text: string, schema: ValuesSchema): ParsedValues {
  const yaml = parseDocument(text, { prettyErrors: false });
  const diagnostics: TextDiagnostic[] = yaml.errors.map((error) => ({
    from: error.pos[0],
    to: Math.max(error.pos[0], error.pos[1]),
    severity: 'error',
    message: error.message.split('\n')[0] ?? error.message,
  }));
  if (diagnostics.length > 0) return { values: null, yaml, diagnostics };
  const json: unknown = yaml.toJS() ?? {};
  if (!isRecord(json)) return { values: null, yaml, diagnostics: [{ from: 0, to: text.length, severity: 'error', message: 'The values must be a mapping (key: value)' }] };
  for (const problem of valueProblems(json, schema)) {
    const [from, to] = locate(yaml, problem.path);
    const where = formatPath(problem.path);
    diagnostics.push({ from, to, severity: 'error', message: where ? `${where}: ${problem.message}` : problem.message });
  }
  return { values: json, yaml, diagnostics };
}

export interface ChartRef {
  name: string;
  version: string;
  repository: { name: string; url: string };
}

const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function namespaceProblem(namespace: string): string | undefined {
  if (namespace.trim() === '') return 'This field is required';
  if (namespace.length > 63 || !DNS1123.test(namespace)) return 'must be lowercase letters, digits and dashes, at most 63 characters';
  return undefined;
}

/** The Flux tab: a HelmRepository and a HelmRelease with the values (spec §9: interval 30m). */
export function fluxYaml(chart: ChartRef, namespace: string, values: Values): string {
  const repository = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmRepository',
    metadata: { name: chart.repository.name, namespace },
    spec: { interval: GITOPS_INTERVAL, url: chart.repository.url },
  };
  const release = {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: chart.name, namespace },
    spec: {
      interval: GITOPS_INTERVAL,
      chart: { spec: { chart: chart.name, version: chart.version, sourceRef: { kind: 'HelmRepository', name: chart.repository.name, namespace } } },
      ...(Object.keys(values).length > 0 ? { values } : {}),
    },
  };
  return `${stringify(repository, { lineWidth: 0 })}---\n${stringify(release, { lineWidth: 0 })}`;
}

/** The Helm CLI tab: add the repository, write values.yaml, install the chart with it. */
export function helmCommands(chart: ChartRef, namespace: string, values: Values): string {
  const valuesText = valuesToYaml(values) || '{}\n';
  return [
    `helm repo add ${chart.repository.name} ${chart.repository.url}`,
    'helm repo update',
    `cat > values.yaml <<'EOF'\n${valuesText}EOF`,
    `helm install ${chart.name} ${chart.repository.name}/${chart.name} --version ${chart.version} -n ${namespace} --create-namespace -f values.yaml`,
  ].join('\n');
}
