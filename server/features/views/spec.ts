import { z } from 'zod';
import { celProblems } from '../../platform/expressions';
import { unknownFields } from '../../platform/schema-fields';
import { parseDuration } from '../../platform/units';
import { mcpMarkSchema } from '../../platform/mcp-marks';
import { isOneOf } from '../../../common/guards';

/**
 * The `View` spec (mission-control.flanksource.com/v1, docs/RESOURCES.md#view): one schema names every field
 * Mission Control defines; a field outside it, or one we read but do not run, is a warning naming its path,
 * never a refusal. What we refuse, each problem with its path: a column of no known type, two columns of one
 * name, columns without a primary key, a `for` naming no column, a mapping that does not compile as CEL, a
 * query with no source (or two), a panel without a query or of no known type, a variable with neither
 * `values` nor `valueFrom`, a bad duration in `cache`.
 */

type Problem = { path: string; message: string };

const required = z.string({ message: 'is required' }).trim().min(1, 'is required');

/** The column types of Mission Control (duty view.ColumnType), in its order. */
export const COLUMN_TYPES = ['string', 'number', 'boolean', 'datetime', 'duration', 'health', 'status', 'gauge', 'bytes', 'decimal', 'millicore', 'url', 'badge', 'config_item', 'labels'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** The panel types of Mission Control (api.PanelType). */
export const PANEL_TYPES = ['piechart', 'text', 'gauge', 'number', 'table', 'duration', 'bargauge', 'properties', 'timeseries', 'heatmap'] as const;
export type PanelType = (typeof PANEL_TYPES)[number];

/** Panel types of Mission Control this console does not draw: accepted, warned, and left out of the checked spec. */
export const UNRUN_PANEL_TYPES = ['playbooks'] as const;

/** The sources a named query may have, exactly one each. */
export const QUERY_SOURCES = ['configs', 'changes', 'sql', 'http', 'prometheus', 'viewTableSelector'] as const;
export type QuerySource = (typeof QUERY_SOURCES)[number];

export const CARD_POSITIONS = ['title', 'subtitle', 'deck', 'body', 'footer', 'headerRight'] as const;

/** Mission Control's ResourceSelector, as configs/changes queries, variables and config tabs take it. */
export const viewSelectorSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  agent: z.string().optional(),
  scope: z.string().optional(),
  cache: z.string().optional(),
  search: z.string().optional(),
  limit: z.number().int().min(0).optional(),
  includeDeleted: z.boolean().optional(),
  types: z.array(z.string()).optional(),
  statuses: z.array(z.string()).optional(),
  health: z.string().optional(),
  labelSelector: z.string().optional(),
  tagSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
});
export type ViewSelector = z.infer<typeof viewSelectorSchema>;

/** An EnvVar: a value, or a reference resolved when the query runs. */
const envVar = z.object({
  name: z.string().optional(),
  value: z.string().optional(),
  valueFrom: z.record(z.string(), z.unknown()).optional(),
});
const envValue = z.union([z.string().transform((value) => ({ value })), envVar]);

const sqlQuery = z.object({
  connection: z.string().optional(),
  url: envValue.optional(),
  username: envValue.optional(),
  password: envValue.optional(),
  type: z.string().optional(),
  query: required,
});

const httpQuery = z.object({
  connection: z.string().optional(),
  url: z.string().optional(),
  method: z.string().optional(),
  headers: z.array(z.object({ name: required, value: z.string().optional(), valueFrom: z.record(z.string(), z.unknown()).optional() })).optional(),
  body: z.string().optional(),
  username: envValue.optional(),
  password: envValue.optional(),
  bearer: envValue.optional(),
  oauth: z.record(z.string(), z.unknown()).optional(),
  ntlm: z.boolean().optional(),
  ntlmv2: z.boolean().optional(),
  digest: z.boolean().optional(),
  tls: z.record(z.string(), z.unknown()).optional(),
  /** A JSONPath / CEL to the rows inside the answer. */
  jsonPath: z.string().optional(),
});

const prometheusQuery = z.object({
  connection: z.string().optional(),
  url: z.string().optional(),
  query: required,
  username: envValue.optional(),
  password: envValue.optional(),
  bearer: envValue.optional(),
  oauth: z.record(z.string(), z.unknown()).optional(),
  ntlm: z.boolean().optional(),
  ntlmv2: z.boolean().optional(),
  digest: z.boolean().optional(),
  tls: z.record(z.string(), z.unknown()).optional(),
});

const viewTableSelector = z.object({
  name: z.string().optional(),
  namespace: z.string().optional(),
  labelSelector: z.string().optional(),
});

export const viewQuerySchema = z.object({
  configs: viewSelectorSchema.optional(),
  changes: viewSelectorSchema.optional(),
  sql: sqlQuery.optional(),
  http: httpQuery.optional(),
  prometheus: prometheusQuery.optional(),
  viewTableSelector: viewTableSelector.optional(),
  /** Column types of the query's result table (`name: string|number|…`), inferred from the rows when absent. */
  columns: z.record(z.string(), z.string()).optional(),
});
export type ViewQuery = z.infer<typeof viewQuerySchema>;

/** A number, also as written in quotes (`value: "50"`). */
const numeric = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, 'must be a number').transform(Number)]);

const gaugeThreshold = z.object({
  percent: numeric.optional(),
  /** The older name of percent. */
  value: numeric.optional(),
  color: required,
});
const gaugeConfig = z.object({
  min: z.union([z.string(), z.number()]).transform(String).optional(),
  max: z.union([z.string(), z.number()]).transform(String).optional(),
  precision: z.number().int().optional(),
  thresholds: z.array(gaugeThreshold).optional(),
});

const cardConfig = z.object({
  position: z.enum(CARD_POSITIONS, { message: `must be one of ${CARD_POSITIONS.join(', ')}` }).optional(),
  useForAccent: z.boolean().optional(),
});

export const viewColumnSchema = z.object({
  name: required,
  type: z.enum(COLUMN_TYPES, { message: `must be one of ${COLUMN_TYPES.join(', ')}` }),
  primaryKey: z.boolean().optional(),
  description: z.string().optional(),
  hidden: z.boolean().optional(),
  unit: z.string().optional(),
  width: z.union([z.string(), z.number()]).transform(String).optional(),
  icon: z.string().optional(),
  /** Deprecated upstream (use url): the column this one gives the link of; not shown itself. */
  for: z.string().optional(),
  filter: z.object({ type: z.string({ message: 'is required: multiselect' }) }).optional(),
  url: z.object({
    /** CEL giving a config id or a search (`f("name=$(.namespace)", row)`). */
    config: z.string().optional(),
    /** A Go template giving a URL. */
    template: z.string().optional(),
    view: z.object({ namespace: z.string().optional(), name: z.string().optional(), filter: z.record(z.string(), z.string()).optional() }).optional(),
  }).optional(),
  gauge: gaugeConfig.optional(),
  configItem: z.object({ idField: z.string().optional() }).optional(),
  badge: z.object({ color: z.object({ auto: z.boolean().optional(), map: z.record(z.string(), z.string()).optional() }).optional() }).optional(),
  card: cardConfig.optional(),
  /** Deprecated upstream: the older name of card.position. */
  cardPosition: z.enum(CARD_POSITIONS, { message: `must be one of ${CARD_POSITIONS.join(', ')}` }).optional(),
});
export type ViewColumn = z.infer<typeof viewColumnSchema>;

export const viewPanelSchema = z.object({
  name: required,
  description: z.string().optional(),
  type: z.enum([...PANEL_TYPES, ...UNRUN_PANEL_TYPES], { message: `must be one of ${PANEL_TYPES.join(', ')}` }),
  /**
   * SQL over the view's named query results, each a table named after its query. Empty or left out, as
   * Mission Control accepts it: warned, and the panel answers `query is required` (see checkViewSpec).
   */
  query: z.string({ message: 'must be text: SQL over the view\'s query results' }).default(''),
  gauge: gaugeConfig.extend({ unit: z.string().optional() }).optional(),
  bargauge: gaugeConfig.extend({
    unit: z.string().optional(),
    group: z.string().optional(),
    format: z.enum(['percentage', 'multiplier'], { message: 'must be percentage or multiplier' }).optional(),
  }).optional(),
  piechart: z.object({ showLabels: z.boolean().optional(), colors: z.record(z.string(), z.string()).optional() }).optional(),
  number: z.object({ unit: z.string().optional(), precision: z.number().int().optional() }).optional(),
  table: z.object({}).optional(),
  timeseries: z.object({
    timeKey: z.string().optional(),
    valueKey: z.string().optional(),
    style: z.enum(['lines', 'area', 'points'], { message: 'must be one of lines, area, points' }).optional(),
    legend: z.object({ enable: z.boolean().optional(), layout: z.enum(['vertical', 'horizontal'], { message: 'must be vertical or horizontal' }).optional() }).optional(),
  }).optional(),
  heatmap: z.object({ mode: z.enum(['calendar', 'compact'], { message: 'must be calendar or compact' }).optional() }).optional(),
});
export type ViewPanel = z.infer<typeof viewPanelSchema>;

/** The panel types that take an options block of their own name. */
const PANEL_OPTIONS = ['gauge', 'bargauge', 'piechart', 'number', 'table', 'timeseries', 'heatmap'] as const;

export const viewVariableSchema = z.object({
  key: required.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'may hold letters, digits and _ only, not starting with a digit'),
  label: z.string().optional(),
  values: z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  valueFrom: z.object({
    config: viewSelectorSchema.optional(),
    /** Go templates over `.config` giving each option's label and value (default: the config's name). */
    labelTemplate: z.string().optional(),
    valueTemplate: z.string().optional(),
  }).optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
  dependsOn: z.array(z.string()).optional(),
});
export type ViewVariable = z.infer<typeof viewVariableSchema>;

const cacheDuration = z.string({ message: 'must be a duration such as 30s, 5m or 1h' }).refine((value) => {
  const millis = parseDuration(value);
  return millis !== undefined && millis >= 0;
}, { message: 'is not a duration such as 30s, 5m or 1h' });

export const viewSpecSchema = z.object({
  description: z.string().optional(),
  display: z.object({
    title: z.string().optional(),
    icon: z.string().optional(),
    sidebar: z.boolean().optional(),
    ordinal: z.number().int().optional(),
    card: z.object({ columns: z.number().int().min(1).optional(), default: z.boolean().optional() }).optional(),
    table: z.object({
      size: z.number().int().min(1).optional(),
      sort: z.string().regex(/^[+-]?[A-Za-z0-9_.]+$/, 'must be a column name, with - before it for descending').optional(),
    }).optional(),
    plugins: z.array(z.object({
      configTab: viewSelectorSchema,
      /** Variable name → Go template over `.config`, passed to the view when shown on that item. */
      variables: z.record(z.string(), z.string()).optional(),
    })).optional(),
  }).optional(),
  queries: z.record(z.string(), viewQuerySchema).optional(),
  /** SQL over the named query results giving the view's rows, when there is more than one query. */
  merge: z.string().optional(),
  columns: z.array(viewColumnSchema).optional(),
  /** Column name → CEL over `row` (and `var`) giving the column's value. */
  mapping: z.record(z.string(), z.string()).optional(),
  panels: z.array(viewPanelSchema).optional(),
  templating: z.array(viewVariableSchema).optional(),
  cache: z.object({ maxAge: cacheDuration.optional(), minAge: cacheDuration.optional(), refreshTimeout: cacheDuration.optional() }).optional(),
  sections: z.array(z.object({
    title: z.string().optional(),
    icon: z.string().optional(),
    viewRef: z.object({ namespace: z.string().optional(), name: required }).optional(),
    /** The console's own Changes or Configs list with filters, in place of a view. */
    uiRef: z.object({ changes: z.record(z.string(), z.unknown()).optional(), configs: z.record(z.string(), z.unknown()).optional() }).optional(),
  })).optional(),
  /** How the view is offered to LLM clients as its own MCP tool (docs/MCP.md). */
  mcp: mcpMarkSchema.optional(),
});
export type ViewSpec = z.infer<typeof viewSpecSchema>;

/** The query's one source (validated to be exactly one). */
export function querySourceOf(query: ViewQuery): QuerySource {
  const found = QUERY_SOURCES.find((source) => query[source] !== undefined);
  if (!found) throw new Error('query has no source');
  return found;
}

function zodPath(segments: ReadonlyArray<PropertyKey>): string {
  return segments.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : `${out}.${String(segment)}`), 'spec');
}

/** A mapping's key as a path segment: `.name`, or `["a-b"]` when it is not an identifier. */
function keyPath(base: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** Whether an expression holds `$(…)` or `{{…}}` templating, filled in before it is compiled. */
function templated(expression: string): boolean {
  return expression.includes('$(') || expression.includes('{{');
}

/** The older Mission Control template `$(.var.x)` / `$(var.x)` replaced by a literal, so the CEL around it compiles. */
function withoutTemplates(expression: string): string {
  return expression.replace(/\$\([^()]*\)/g, 'x').replace(/\{\{[\s\S]*?\}\}/g, 'x');
}

/**
 * A CEL field compiled: text that does not parse is a problem; an expression that parses but that this
 * console's CEL cannot evaluate (Mission Control's `f(…)`, `has()` over a call's result) is a warning naming
 * the field, which then gives no value.
 */
function celField(where: string, expression: string, problems: Problem[], warnings: string[]): void {
  const compiled = templated(expression) ? withoutTemplates(expression) : expression;
  for (const problem of celProblems(where, compiled)) {
    const message = compiled === expression ? problem.message : problem.message.replace(JSON.stringify(compiled), JSON.stringify(expression));
    if (!/does not parse/.test(message)) warnings.push(`${where}: ${message}; this field gives no value here`);
    else problems.push({ path: problem.path, message });
  }
}

export interface CheckedView {
  spec: ViewSpec;
  warnings: string[];
}

/**
 * Checks a view spec whole: every problem by path, every field we do not read or run named in a warning.
 * A save asks for the problems, the warnings and the columns of one spec object: it is checked once.
 */
export function checkViewSpec(raw: Record<string, unknown>): { problems: Problem[]; checked?: CheckedView } {
  let found = checkedSpecs.get(raw);
  if (!found) {
    found = checkSpec(raw);
    checkedSpecs.set(raw, found);
  }
  return found;
}

const checkedSpecs = new WeakMap<object, { problems: Problem[]; checked?: CheckedView }>();

function checkSpec(raw: Record<string, unknown>): { problems: Problem[]; checked?: CheckedView } {
  const problems: Problem[] = [];
  const warnings = unknownFields(viewSpecSchema, raw, 'spec', { records: true, unions: true }).map((path) => `${path} is not read by this console and was ignored`);
  const parsed = viewSpecSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ path: zodPath(issue.path), message: issue.message });
    return { problems };
  }
  const spec = parsed.data;
  const columns = spec.columns ?? [];
  const queries = Object.entries(spec.queries ?? {});
  const panels = spec.panels ?? [];
  const sections = spec.sections ?? [];

  // What a view is (Mission Control refuses the same): something to show, and something to show it from.
  const drawn = panels.filter((panel) => !isOneOf(UNRUN_PANEL_TYPES, panel.type));
  if (queries.length === 0 && sections.length === 0 && (columns.length > 0 || drawn.length > 0)) problems.push({ path: 'spec.queries', message: 'is required: a view needs queries (or sections embedding other views)' });
  if (columns.length === 0 && panels.length === 0 && sections.length === 0) problems.push({ path: 'spec', message: 'shows nothing: give columns, panels or sections' });

  // Columns.
  const columnNames = new Set<string>();
  columns.forEach((column, index) => {
    const where = `spec.columns[${index}]`;
    if (columnNames.has(column.name)) problems.push({ path: `${where}.name`, message: `${JSON.stringify(column.name)} is named twice: column names are unique in a view` });
    columnNames.add(column.name);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(column.name)) problems.push({ path: `${where}.name`, message: `${JSON.stringify(column.name)} must be letters, digits and _ only, not starting with a digit (it names a table column)` });
    if (['request_fingerprint', 'agent_id'].includes(column.name.toLowerCase())) problems.push({ path: `${where}.name`, message: `${JSON.stringify(column.name)} is reserved: every view table has it; choose another name` });
    if (column.type === 'gauge' && !column.gauge) problems.push({ path: `${where}.gauge`, message: 'is required for a gauge column: {min, max, thresholds}' });
    if (column.type !== 'gauge' && column.gauge) problems.push({ path: `${where}.gauge`, message: `is for gauge columns only; this column is ${column.type}` });
    if (column.cardPosition !== undefined) warnings.push(`${where}.cardPosition is the older name of card.position: read as card.position`);
    if (column.filter && column.filter.type !== 'multiselect') warnings.push(`${where}.filter.type: ${JSON.stringify(column.filter.type)} is not a filter here (multiselect); the column is filtered as multiselect`);
    if (column.url?.config) celField(`${where}.url.config`, column.url.config, problems, warnings);
  });
  columns.forEach((column, index) => {
    if (column.for !== undefined && !columnNames.has(column.for)) {
      problems.push({ path: `spec.columns[${index}].for`, message: `${JSON.stringify(column.for)} is not a column of this view (${[...columnNames].join(', ')})` });
    }
  });
  if (columns.length > 0 && !columns.some((column) => column.primaryKey)) {
    problems.push({ path: 'spec.columns', message: 'needs a primary key: set primaryKey: true on the column(s) that identify a row' });
  }

  // Mapping: CEL per column over each row.
  for (const [key, expression] of Object.entries(spec.mapping ?? {})) {
    const where = keyPath('spec.mapping', key);
    if (columns.length > 0 && !columnNames.has(key)) warnings.push(`${where} is not a column of this view: its value is computed but not shown`);
    if (expression.trim() === '') problems.push({ path: where, message: 'is empty: give a CEL expression over row' });
    else celField(where, expression, problems, warnings);
  }

  // Queries: exactly one source each.
  for (const [name, query] of queries) {
    const where = keyPath('spec.queries', name);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) problems.push({ path: where, message: `${JSON.stringify(name)} must be letters, digits and _ only (panels and merge read it as a table name)` });
    const sources = QUERY_SOURCES.filter((source) => query[source] !== undefined);
    if (sources.length === 0) problems.push({ path: where, message: `names no source: give one of ${QUERY_SOURCES.join(', ')}` });
    else if (sources.length > 1) problems.push({ path: where, message: `names ${sources.join(' and ')}: a query has exactly one source` });
    if (query.http && !query.http.url && !query.http.connection) problems.push({ path: `${where}.http`, message: 'needs a url or a connection' });
    if (query.prometheus && !query.prometheus.url && !query.prometheus.connection) problems.push({ path: `${where}.prometheus`, message: 'needs a url or a connection' });
    if (query.sql && !query.sql.connection && !query.sql.url) problems.push({ path: `${where}.sql`, message: 'needs a connection (or a url)' });
    if (query.viewTableSelector && !query.viewTableSelector.name && !query.viewTableSelector.labelSelector) problems.push({ path: `${where}.viewTableSelector`, message: 'needs a name or a labelSelector' });
    for (const source of ['configs', 'changes'] as const) {
      const agent = query[source]?.agent;
      if (agent !== undefined && !['all', 'self', 'local', ''].includes(agent)) warnings.push(`${where}.${source}.agent: ${JSON.stringify(agent)} is read as all agents: this console's catalog is not split by agent here`);
    }
  }
  if (queries.length > 1 && !spec.merge && columns.length > 0) warnings.push(`spec.merge is not set: the rows of the ${queries.length} queries are appended one after another`);

  // Panels.
  panels.forEach((panel, index) => {
    const where = `spec.panels[${index}]`;
    if (isOneOf(UNRUN_PANEL_TYPES, panel.type)) {
      warnings.push(`${where}.type: ${panel.type} panels are not run by this console: the panel is not shown`);
      return;
    }
    // Mission Control applies a panel without SQL and fails the view when it runs (`query is required`);
    // here the panel alone answers that error, the rows and the other panels are shown.
    if (panel.query.trim() === '') warnings.push(`${where}.query is empty: the panel shows the error "query is required" (give SQL over the view's query results)`);
    for (const option of PANEL_OPTIONS) {
      if (panel[option] !== undefined && option !== panel.type) problems.push({ path: `${where}.${option}`, message: `is for ${option} panels only; this panel is ${panel.type}` });
    }
  });

  // Templating variables.
  const keys = new Set<string>();
  spec.templating?.forEach((variable, index) => {
    const where = `spec.templating[${index}]`;
    if (keys.has(variable.key)) problems.push({ path: `${where}.key`, message: `${JSON.stringify(variable.key)} is named twice: variable keys are unique in a view` });
    keys.add(variable.key);
    const hasValues = variable.values !== undefined;
    const hasFrom = variable.valueFrom !== undefined;
    if (!hasValues && !hasFrom) problems.push({ path: where, message: 'has no values: give values: [..] or valueFrom: {config: <selector>}' });
    if (hasValues && hasFrom) problems.push({ path: where, message: 'gives both values and valueFrom: give exactly one' });
    if (hasFrom && !variable.valueFrom?.config) problems.push({ path: `${where}.valueFrom.config`, message: 'is required: the catalog selector whose items are the options' });
    if (variable.values?.length === 0) problems.push({ path: `${where}.values`, message: 'is empty: a variable needs at least one value' });
  });
  spec.templating?.forEach((variable, index) => {
    variable.dependsOn?.forEach((key, at) => {
      if (!keys.has(key)) problems.push({ path: `spec.templating[${index}].dependsOn[${at}]`, message: `${JSON.stringify(key)} is not a variable of this view` });
      else if (key === variable.key) problems.push({ path: `spec.templating[${index}].dependsOn[${at}]`, message: 'a variable cannot depend on itself' });
    });
  });

  // Sections: other views embedded (a missing view is a warning at save, where the views are known).
  sections.forEach((section, index) => {
    const where = `spec.sections[${index}]`;
    if (!section.viewRef && !section.uiRef) problems.push({ path: `${where}.viewRef`, message: 'is required: {namespace, name} of the view to embed' });
    if (section.uiRef) warnings.push(`${where}.uiRef is not run by this console: the section is not shown (embed a view with viewRef instead)`);
  });

  if (problems.length > 0) return { problems };
  // What is not run is left out of the spec the engine and the page read (each named in a warning above).
  const run: ViewSpec = {
    ...spec,
    ...(spec.panels ? { panels: spec.panels.filter((panel) => !isOneOf(UNRUN_PANEL_TYPES, panel.type)) } : {}),
    ...(spec.sections ? { sections: spec.sections.filter((section) => section.viewRef !== undefined) } : {}),
  };
  return { problems, checked: { spec: run, warnings } };
}

let jsonSchema: Record<string, unknown> | undefined;

/** JSON schema of a View spec (as written), for the editor's Code tab. */
export function viewSpecJsonSchema(): Record<string, unknown> {
  jsonSchema ??= z.toJSONSchema(viewSpecSchema, { unrepresentable: 'any', io: 'input' });
  return jsonSchema;
}
