import { z } from 'zod';
import type { FormCodec } from '@web/features/canaries/editor/spec-editor';
import { DEFAULT_NAMESPACE, isRecord, parseProblemPath, parseResourceYaml, resourceToYaml, type ParsedYaml, type ResourceDocument, type YamlKind } from '@web/features/canaries/model/document';
import { REQUIRED } from '@web/lib/validation';
import { isOneOf } from '@common/guards';

/** kind: View (mission-control.flanksource.com/v1), as `watchkeeper apply` takes it. */
export const VIEW_YAML: YamlKind = {
  apiVersion: 'mission-control.flanksource.com/v1',
  kind: 'View',
  noun: 'view',
  specHint: 'the queries, and the columns or panels they fill',
  leadingKeys: ['description', 'display', 'templating', 'queries', 'merge', 'columns', 'mapping', 'panels', 'sections', 'cache'],
};

/** The column types a view may name (issue 22; server/features/views/spec.ts checks the same list). */
export const COLUMN_TYPES = [
  'string',
  'number',
  'boolean',
  'datetime',
  'duration',
  'health',
  'status',
  'gauge',
  'bytes',
  'decimal',
  'millicore',
  'url',
  'badge',
  'config_item',
  'labels',
] as const;

/** The query kinds a view may name; the form edits the catalog ones (types and search), the rest in Code. */
export const QUERY_KINDS = ['configs', 'changes', 'sql', 'http', 'prometheus', 'viewTableSelector'] as const;
export const FORM_QUERY_KINDS = ['configs', 'changes'] as const;
export const isFormQueryKind = (kind: string): boolean => isOneOf(FORM_QUERY_KINDS, kind);

const record = z.record(z.string(), z.unknown());
const pair = z.object({ name: z.string(), value: z.string() });
const columnValue = z.object({ name: z.string(), type: z.string(), primaryKey: z.boolean(), hidden: z.boolean(), rest: record });
const queryValue = z.object({
  name: z.string(),
  kind: z.string(),
  /** configs/changes: the types, comma separated. */
  types: z.string(),
  search: z.string(),
  /** The query's other keys (beside its kind's block), kept as written. */
  rest: record,
  /** The kind's block without types and search (tagSelector, agent, limit, or a whole sql block…). */
  block: record,
});
export type ColumnFormValue = z.infer<typeof columnValue>;
export type QueryFormValue = z.infer<typeof queryValue>;

/**
 * What the form checks itself before asking the server: names present, a column type from the list, an
 * integer ordinal, no two columns or queries of one name. The server checks the whole spec again.
 */
export const viewFormSchema = z.object({
  name: z.string().trim().min(1, REQUIRED),
  namespace: z.string(),
  labels: z.array(pair).superRefine((labels, ctx) => {
    labels.forEach((label, index) => {
      if (label.name.trim() === '' && label.value.trim() !== '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
    });
  }),
  title: z.string(),
  icon: z.string(),
  sidebar: z.boolean(),
  ordinal: z.string().trim().regex(/^(-?\d+)?$/, 'Must be a whole number'),
  columns: z.array(columnValue).superRefine((columns, ctx) => {
    columns.forEach((column, index) => {
      if (column.name.trim() === '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
      else if (columns.findIndex((other) => other.name.trim() === column.name.trim()) !== index) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `Another column is named ${column.name.trim()}` });
      if (column.type === '') ctx.addIssue({ code: 'custom', path: [index, 'type'], message: REQUIRED });
    });
  }),
  queries: z.array(queryValue).superRefine((queries, ctx) => {
    queries.forEach((query, index) => {
      const name = query.name.trim();
      if (name === '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
      else if (queries.findIndex((other) => other.name.trim() === name) !== index) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `Another query is named ${name}` });
    });
  }),
  /** display keys the form does not show (card, table options, plugins…), kept unchanged. */
  displayRest: record,
  /** Spec keys the form does not show (merge, mapping, panels, templating, cache, sections…), kept unchanged. */
  specRest: record,
});
export type ViewFormValues = z.infer<typeof viewFormSchema>;

const DISPLAY_KEYS = ['title', 'icon', 'sidebar', 'ordinal'] as const;
const COLUMN_KEYS = ['name', 'type', 'primaryKey', 'hidden'] as const;

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const without = (value: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));

export function newColumn(name = '', type = 'string'): ColumnFormValue {
  return { name, type, primaryKey: false, hidden: false, rest: {} };
}

export function newQuery(name = '', kind: string = 'configs'): QueryFormValue {
  return { name, kind, types: '', search: '', rest: {}, block: {} };
}

export function newViewForm(): ViewFormValues {
  return { name: '', namespace: DEFAULT_NAMESPACE, labels: [], title: '', icon: '', sidebar: false, ordinal: '', columns: [], queries: [], displayRest: {}, specRest: {} };
}

/** A selector's types as the form shows them: 'Kubernetes::Pod, Kubernetes::Deployment'. */
function typesText(value: unknown): string {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').join(', ') : '';
}

function queryKind(query: Record<string, unknown>): string {
  return QUERY_KINDS.find((kind) => query[kind] !== undefined) ?? '';
}

function queryToForm(name: string, query: unknown): QueryFormValue {
  if (!isRecord(query)) return { ...newQuery(name, ''), rest: {} };
  const kind = queryKind(query);
  const block = kind && isRecord(query[kind]) ? query[kind] : {};
  const rest = kind ? without(query, [kind]) : query;
  if (!isFormQueryKind(kind)) return { name, kind, types: '', search: '', rest, block };
  return { name, kind, types: typesText(block.types), search: textOf(block.search), rest, block: without(block, ['types', 'search']) };
}

function queryToSpec(query: QueryFormValue): Record<string, unknown> {
  if (!query.kind) return { ...query.rest };
  if (!isFormQueryKind(query.kind)) return { ...query.rest, [query.kind]: query.block };
  const selector: Record<string, unknown> = {};
  const types = query.types
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
  if (types.length > 0) selector.types = types;
  if (query.search.trim() !== '') selector.search = query.search.trim();
  return { ...query.rest, [query.kind]: { ...selector, ...query.block } };
}

function ordinalText(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value : '';
}

export function documentToForm(doc: ResourceDocument): ViewFormValues {
  const spec = doc.spec;
  const display = isRecord(spec.display) ? spec.display : {};
  const columns = Array.isArray(spec.columns) ? spec.columns.filter(isRecord) : [];
  const queries = isRecord(spec.queries) ? Object.entries(spec.queries) : [];
  return {
    name: doc.name,
    namespace: doc.namespace,
    labels: Object.entries(doc.labels).map(([name, value]) => ({ name, value })),
    title: textOf(display.title),
    icon: textOf(display.icon),
    sidebar: display.sidebar === true,
    ordinal: ordinalText(display.ordinal),
    columns: columns.map((column) => ({
      name: textOf(column.name),
      type: textOf(column.type),
      primaryKey: column.primaryKey === true,
      hidden: column.hidden === true,
      rest: without(column, COLUMN_KEYS),
    })),
    queries: queries.map(([name, query]) => queryToForm(name, query)),
    displayRest: without(display, DISPLAY_KEYS),
    specRest: without(spec, ['display', 'columns', 'queries']),
  };
}

export function formToDocument(values: ViewFormValues): ResourceDocument {
  const display: Record<string, unknown> = {};
  if (values.title.trim() !== '') display.title = values.title.trim();
  if (values.icon.trim() !== '') display.icon = values.icon.trim();
  if (values.sidebar) display.sidebar = true;
  const ordinal = values.ordinal.trim();
  // A whole number is written as one; anything else is passed on as typed, for the server to name.
  if (ordinal !== '') display.ordinal = /^-?\d+$/.test(ordinal) ? Number(ordinal) : ordinal;
  Object.assign(display, values.displayRest);
  const spec: Record<string, unknown> = {};
  if (Object.keys(display).length > 0) spec.display = display;
  if (values.queries.length > 0) spec.queries = Object.fromEntries(values.queries.map((query) => [query.name.trim(), queryToSpec(query)]));
  if (values.columns.length > 0) {
    spec.columns = values.columns.map((column) => {
      const out: Record<string, unknown> = { name: column.name.trim() };
      if (column.type !== '') out.type = column.type;
      if (column.primaryKey) out.primaryKey = true;
      if (column.hidden) out.hidden = true;
      return { ...out, ...column.rest };
    });
  }
  Object.assign(spec, values.specRest);
  const labels = Object.fromEntries(values.labels.filter((label) => label.name.trim() !== '').map((label) => [label.name.trim(), label.value]));
  return { name: values.name.trim(), namespace: values.namespace.trim() || DEFAULT_NAMESPACE, labels, spec };
}

export const parseViewYaml = (text: string): ParsedYaml => parseResourceYaml(text, VIEW_YAML);
export const viewToYaml = (doc: ResourceDocument): string => resourceToYaml(doc, VIEW_YAML);

export const viewCodec: FormCodec<ViewFormValues> = { toForm: documentToForm, toDocument: formToDocument, parse: parseViewYaml, toYaml: viewToYaml };

export type ViewFormPath =
  | 'name'
  | 'namespace'
  | 'title'
  | 'icon'
  | 'sidebar'
  | 'ordinal'
  | `columns.${number}.name`
  | `columns.${number}.type`
  | `queries.${number}.name`
  | `queries.${number}.types`
  | `queries.${number}.search`;

/** A path segment as an index: the server writes 'spec.columns.1.type' or 'spec.columns[1].type'. */
function indexOf(segment: string | number | undefined): number | undefined {
  if (typeof segment === 'number') return segment;
  return segment !== undefined && /^\d+$/.test(segment) ? Number(segment) : undefined;
}

/** The form field of a server problem's path ('spec.columns[1].type' → columns.1.type), if the form has one. */
export function formTargetOf(path: string, values: Pick<ViewFormValues, 'columns' | 'queries'>): ViewFormPath | undefined {
  const [first, second, third, fourth, fifth] = parseProblemPath(path);
  if (first === 'name' || first === 'namespace') return first;
  if (first !== 'spec') return undefined;
  if (second === 'display') {
    return third === 'title' || third === 'icon' || third === 'sidebar' || third === 'ordinal' ? (fourth === undefined ? third : undefined) : undefined;
  }
  if (second === 'columns') {
    const index = indexOf(third);
    if (index === undefined || !values.columns[index]) return undefined;
    return fourth === 'type' ? `columns.${index}.type` : fourth === 'name' || fourth === undefined ? `columns.${index}.name` : undefined;
  }
  if (second === 'queries' && typeof third === 'string') {
    const index = values.queries.findIndex((query) => query.name.trim() === third);
    const query = values.queries[index];
    if (!query) return undefined;
    if (fourth === undefined) return `queries.${index}.name`;
    if (fourth === query.kind && isFormQueryKind(query.kind) && (fifth === 'types' || fifth === 'search')) return `queries.${index}.${fifth}`;
  }
  return undefined;
}
