import { z } from 'zod';
import { isRecord } from '../../platform/errors';
import { celFieldProblems } from '../../platform/expressions';
import { type AnySource, scheduleOf, sourceOf, type SpecProblem, zodProblems } from '../catalog';
import { COMPONENT_HEALTHS } from '../../../common/topology';
import { CANARY_CHECK_TYPES, checkEntries, componentSelectors, configSelectors, properties } from './upstream';

/** Topologies run every 5 minutes unless their spec says otherwise; never more often than every 30 s. */
export const DEFAULT_TOPOLOGY_SCHEDULE = '@every 5m';
export const MIN_TOPOLOGY_SCHEDULE_MILLIS = 30_000;

/** Catalog source types a `lookup` can read (their entries are the scraper entries of docs/CATALOG.md). */
export const LOOKUP_SOURCES = ['sql', 'http', 'exec', 'file'] as const;

const labelMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));

/** Configs by any of: id, name, type(s), namespace, tags/labels (each pair must match), a CEL test. */
export const configSelectorSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    type: z.string().optional(),
    types: z.array(z.string()).optional(),
    namespace: z.string().optional(),
    tags: labelMap.optional(),
    labels: labelMap.optional(),
    labelSelector: z.string().optional(),
    /** CEL over `config` (the item: name, type, tags, labels, health, status, config). */
    expr: z.string().optional(),
  })
  .strict();
export type ConfigSelector = z.infer<typeof configSelectorSchema>;

/** Checks by name, type, canary, labels or a CEL test; canary-checker's `{selector: {…}}` form is read too. */
export const checkSelectorSchema = z
  .object({
    name: z.string().optional(),
    type: z.string().optional(),
    canary: z.string().optional(),
    namespace: z.string().optional(),
    labels: labelMap.optional(),
    labelSelector: z.string().optional(),
    expr: z.string().optional(),
  })
  .strict();
export type CheckSelector = z.infer<typeof checkSelectorSchema>;

/** Components of any topology by name, type(s), labels or owner: shown under this one as well. */
export const componentSelectorSchema = z
  .object({
    name: z.string().optional(),
    type: z.string().optional(),
    types: z.array(z.string()).optional(),
    labels: labelMap.optional(),
    labelSelector: z.string().optional(),
    owner: z.string().optional(),
    topology: z.string().optional(),
  })
  .strict();
export type ComponentSelector = z.infer<typeof componentSelectorSchema>;

const configLookupSchema = z
  .object({
    config: configSelectorSchema,
    /** A JSONPath into the config (e.g. $.spec.replicas); without it the config's name. */
    field: z.string().optional(),
    display: z.object({ expr: z.string() }).strict().optional(),
  })
  .strict();

export const propertySchema = z
  .object({
    name: z.string({ message: 'is required' }).trim().min(1, 'is required'),
    label: z.string().optional(),
    text: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
    value: z.number().optional(),
    unit: z.string().optional(),
    type: z.enum(['text', 'number', 'url', 'badge'], { message: 'must be text, number, url or badge' }).optional(),
    color: z.string().optional(),
    headline: z.boolean().optional(),
    tooltip: z.string().optional(),
    icon: z.string().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    /** Colour thresholds for number values: at or above `critical` red, at or above `warning` orange. */
    warning: z.number().optional(),
    critical: z.number().optional(),
    /** The value from a config: a JSONPath into it, or a CEL display over `config`. */
    configLookup: configLookupSchema.optional(),
    /** CEL over `component` (name, type, labels, properties): a number becomes value, anything else text. */
    expr: z.string().optional(),
  })
  .strict();
export type PropertySpec = z.infer<typeof propertySchema>;

const checkEntrySchema = z.union([
  checkSelectorSchema,
  z.object({ selector: checkSelectorSchema, inline: z.unknown().optional() }).strict(),
  z.object({ inline: z.unknown() }).strict(),
]);

export interface LookupSpec {
  configs?: ConfigSelector[];
  checks?: CheckSelector[];
  components?: ComponentSelector[];
  /** Entries of catalog source types, each a list; results become components (see display). */
  /** Each entry as checked, and as written (`raw`: its secrets and connections are read at each run). */
  sources: Array<{ source: AnySource; where: string; entry: Record<string, unknown>; raw: unknown }>;
  /** CEL over `results` (the list of what the sources answered): a list of component maps. */
  display?: { expr: string };
}

export interface ForEachSpec {
  properties: PropertySpec[];
  configs: ConfigSelector[];
  checks: CheckSelector[];
  selectors: ComponentSelector[];
  components: ComponentSpec[];
  labels: Record<string, string>;
  health?: ComponentSpec['health'];
  healthExpr?: string;
  status?: string;
}

export interface ComponentSpec {
  /** Where it is in the spec, for messages: spec.components[1]. */
  where: string;
  name: string | undefined;
  text?: string;
  type?: string;
  icon?: string;
  owner?: string;
  tooltip?: string;
  description?: string;
  /** Stable id within the topology, instead of the name (for names that change). */
  id?: string;
  labels: Record<string, string>;
  hidden: boolean;
  health?: (typeof COMPONENT_HEALTHS)[number];
  /** CEL over component, checks, configs, children: healthy, unhealthy, warning or unknown. */
  healthExpr?: string;
  status?: string;
  statusExpr?: string;
  properties: PropertySpec[];
  components: ComponentSpec[];
  selectors: ComponentSelector[];
  checks: CheckSelector[];
  configs: ConfigSelector[];
  lookup?: LookupSpec;
  forEach?: ForEachSpec;
  /** forEach as written: its `{{.component.name}}` templates are rendered for each looked-up component. */
  forEachRaw?: Record<string, unknown>;
}

export interface ParsedTopology {
  schedule: string | null;
  root: ComponentSpec;
  errors: SpecProblem[];
  warnings: string[];
}

const COMPONENT_FIELDS = new Set([
  'name', 'text', 'type', 'icon', 'owner', 'tooltip', 'description', 'id', 'labels', 'hidden', 'health', 'healthExpr', 'status', 'statusExpr',
  'properties', 'components', 'selectors', 'checks', 'configs', 'lookup', 'forEach',
]);
/** canary-checker fields this console reads elsewhere or does not read: warnings, never silent. */
const IGNORED_COMPONENT_FIELDS: Record<string, string> = {
  summary: 'summaries are computed from the children, checks and configs',
  order: 'components are ordered by health, then name',
  lifecycle: 'not supported',
  external_id: 'use id',
  statusReason: 'the reason is computed from the health roll-up',
  logs: 'log backends are not supported yet',
  parentLookup: 'not supported; use selectors on the parent',
  relationships: 'use selectors',
  externalID: 'use id',
  namespace: 'components have no namespace here',
  groupBy: 'grouping a topology by a catalog tag is not supported',
  push: 'topologies are not pushed to another instance',
};
const TOPOLOGY_FIELDS = new Set(['schedule', 'type', 'icon', 'owner', 'text', 'tooltip', 'id', 'label', 'labels', 'properties', 'components', 'configs', 'checks', 'selectors', 'health', 'healthExpr', 'status', 'statusExpr', 'description', 'hidden']);
const LOOKUP_FIELDS = new Set(['configs', 'checks', 'components', 'display', ...LOOKUP_SOURCES]);

function list<T>(raw: unknown, where: string, schema: z.ZodType<T>, errors: SpecProblem[]): T[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.push({ path: where, message: 'must be a list' });
    return [];
  }
  const out: T[] = [];
  raw.forEach((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else errors.push(...zodProblems(parsed.error, `${where}[${index}]`));
  });
  return out;
}

function checkList(raw: unknown, where: string, errors: SpecProblem[], warnings: string[]): CheckSelector[] {
  const out: CheckSelector[] = [];
  list(raw, where, checkEntrySchema, errors).forEach((entry, index) => {
    const inline = 'inline' in entry && entry.inline !== undefined;
    if (inline) warnings.push(`${where}[${index}].inline: inline canaries are not supported; define the canary on its own and select it`);
    if ('selector' in entry && entry.selector) out.push(entry.selector);
    else if (!('inline' in entry)) out.push(entry as CheckSelector);
  });
  return out;
}

function optionalText(spec: Record<string, unknown>, key: string, where: string, errors: SpecProblem[]): string | undefined {
  const value = spec[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  errors.push({ path: `${where}.${key}`, message: 'must be a text' });
  return undefined;
}

function parseLookup(raw: unknown, where: string, errors: SpecProblem[], warnings: string[]): LookupSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) {
    errors.push({ path: where, message: 'must be a mapping of lookups (configs, checks, components, sql, http, exec, file)' });
    return undefined;
  }
  const lookup: LookupSpec = { sources: [] };
  for (const key of Object.keys(raw)) {
    if (LOOKUP_FIELDS.has(key)) continue;
    if (CANARY_CHECK_TYPES.has(key)) warnings.push(`${where}.${key}: lookups of canary-checker's ${key} checks are not supported; left out`);
    else errors.push({ path: `${where}.${key}`, message: `unknown lookup; use one of ${[...LOOKUP_FIELDS].join(', ')}` });
  }
  if (raw.configs !== undefined) lookup.configs = list(configSelectors(raw.configs, `${where}.configs`, warnings), `${where}.configs`, configSelectorSchema, errors);
  if (raw.checks !== undefined) lookup.checks = checkList(checkEntries(raw.checks, `${where}.checks`, warnings), `${where}.checks`, errors, warnings);
  if (raw.components !== undefined) lookup.components = list(componentSelectors(raw.components, `${where}.components`, warnings), `${where}.components`, componentSelectorSchema, errors);
  if (raw.display !== undefined) {
    const display = z.object({ expr: z.string().min(1, 'is required') }).strict().safeParse(raw.display);
    if (display.success) lookup.display = display.data;
    else errors.push(...zodProblems(display.error, `${where}.display`));
  }
  for (const key of LOOKUP_SOURCES) {
    if (raw[key] === undefined) continue;
    const source = sourceOf(key);
    if (!source) continue;
    const entries = raw[key];
    if (!Array.isArray(entries)) {
      errors.push({ path: `${where}.${key}`, message: 'must be a list of entries' });
      continue;
    }
    entries.forEach((entry, index) => {
      const at = `${where}.${key}[${index}]`;
      const parsed = source.schema.safeParse(entry);
      if (!parsed.success) errors.push(...zodProblems(parsed.error, at));
      else lookup.sources.push({ source, where: at, entry: parsed.data, raw: entry });
    });
  }
  return lookup;
}

export function parseForEach(raw: unknown, where: string, errors: SpecProblem[], warnings: string[]): ForEachSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) {
    errors.push({ path: where, message: 'must be a mapping (properties, configs, checks, selectors, components, labels)' });
    return undefined;
  }
  const known = new Set(['properties', 'configs', 'checks', 'selectors', 'components', 'labels', 'health', 'healthExpr', 'status']);
  for (const key of Object.keys(raw)) {
    if (key === 'relationships') warnings.push(`${where}.relationships: use selectors; ignored`);
    else if (!known.has(key)) errors.push({ path: `${where}.${key}`, message: `unknown field; use one of ${[...known].join(', ')}` });
  }
  const labels = raw.labels === undefined ? undefined : labelMap.safeParse(raw.labels);
  if (labels && !labels.success) errors.push(...zodProblems(labels.error, `${where}.labels`));
  const health = raw.health === undefined ? undefined : z.enum(COMPONENT_HEALTHS).safeParse(raw.health);
  if (health && !health.success) errors.push({ path: `${where}.health`, message: `must be one of ${COMPONENT_HEALTHS.join(', ')}` });
  return {
    properties: list(properties(raw.properties, `${where}.properties`, warnings), `${where}.properties`, propertySchema, errors),
    configs: list(configSelectors(raw.configs, `${where}.configs`, warnings), `${where}.configs`, configSelectorSchema, errors),
    checks: checkList(checkEntries(raw.checks, `${where}.checks`, warnings), `${where}.checks`, errors, warnings),
    selectors: list(componentSelectors(raw.selectors, `${where}.selectors`, warnings), `${where}.selectors`, componentSelectorSchema, errors),
    components: Array.isArray(raw.components) ? raw.components.map((child, index) => parseComponent(child, `${where}.components[${index}]`, errors, warnings, true)) : [],
    labels: labels?.success ? labels.data : {},
    ...(health?.success ? { health: health.data } : {}),
    ...(typeof raw.healthExpr === 'string' ? { healthExpr: raw.healthExpr } : {}),
    ...(typeof raw.status === 'string' ? { status: raw.status } : {}),
  };
}

function parseComponent(raw: unknown, where: string, errors: SpecProblem[], warnings: string[], nameRequired: boolean, fields = COMPONENT_FIELDS): ComponentSpec {
  const spec = isRecord(raw) ? { ...raw } : {};
  if (!isRecord(raw)) errors.push({ path: where, message: 'must be a mapping with at least a name' });
  // canary-checker's id may be a template ({template, jsonPath, expr}); here it is a fixed text.
  if (isRecord(spec.id)) {
    warnings.push(`${where}.id: templated ids are not supported; the component is known by its name`);
    delete spec.id;
  }
  for (const key of Object.keys(spec)) {
    if (fields.has(key)) continue;
    const ignored = IGNORED_COMPONENT_FIELDS[key];
    if (ignored) warnings.push(`${where}.${key}: ${ignored}`);
    else errors.push({ path: `${where}.${key}`, message: 'unknown field' });
  }
  const name = optionalText(spec, 'name', where, errors)?.trim();
  const lookup = parseLookup(spec.lookup, `${where}.lookup`, errors, warnings);
  if (nameRequired && !name && !lookup) errors.push({ path: `${where}.name`, message: 'is required (or a lookup that finds the components)' });
  const labels = spec.labels === undefined ? undefined : labelMap.safeParse(spec.labels);
  if (labels && !labels.success) errors.push(...zodProblems(labels.error, `${where}.labels`));
  const health = spec.health === undefined ? undefined : z.enum(COMPONENT_HEALTHS).safeParse(spec.health);
  if (health && !health.success) errors.push({ path: `${where}.health`, message: `must be one of ${COMPONENT_HEALTHS.join(', ')}` });
  if (spec.hidden !== undefined && typeof spec.hidden !== 'boolean') errors.push({ path: `${where}.hidden`, message: 'must be true or false' });
  const children = spec.components;
  if (children !== undefined && !Array.isArray(children)) errors.push({ path: `${where}.components`, message: 'must be a list of components' });
  const component: ComponentSpec = {
    where,
    name,
    labels: labels?.success ? labels.data : {},
    hidden: spec.hidden === true,
    properties: list(properties(spec.properties, `${where}.properties`, warnings), `${where}.properties`, propertySchema, errors),
    components: Array.isArray(children) ? children.map((child, index) => parseComponent(child, `${where}.components[${index}]`, errors, warnings, true)) : [],
    selectors: list(componentSelectors(spec.selectors, `${where}.selectors`, warnings), `${where}.selectors`, componentSelectorSchema, errors),
    checks: checkList(checkEntries(spec.checks, `${where}.checks`, warnings), `${where}.checks`, errors, warnings),
    configs: list(configSelectors(spec.configs, `${where}.configs`, warnings), `${where}.configs`, configSelectorSchema, errors),
  };
  for (const key of ['text', 'type', 'icon', 'owner', 'tooltip', 'description', 'id', 'healthExpr', 'status', 'statusExpr'] as const) {
    const value = optionalText(spec, key, where, errors);
    if (value !== undefined && value !== '') component[key] = value;
  }
  if (health?.success) component.health = health.data;
  if (lookup) component.lookup = lookup;
  const forEach = parseForEach(spec.forEach, `${where}.forEach`, errors, warnings);
  if (forEach) {
    if (!lookup) warnings.push(`${where}.forEach: applies to looked-up components; this component has no lookup`);
    component.forEach = forEach;
    if (isRecord(spec.forEach)) component.forEachRaw = spec.forEach;
  }
  return component;
}

/**
 * Reads a Topology spec (canary-checker format): the root component's fields (type, icon, properties, …),
 * its components (nested, with lookups, forEach and selectors) and the schedule (default every 5
 * minutes, at least 30 s, @never). Every problem has its path; fields we read elsewhere or not at all are
 * warnings.
 */
export function parseTopologySpec(raw: unknown, name: string): ParsedTopology {
  const errors: SpecProblem[] = [];
  const warnings: string[] = [];
  if (!isRecord(raw)) errors.push({ path: 'spec', message: 'must be a mapping with components, properties, schedule, …' });
  const spec = isRecord(raw) ? raw : {};
  const schedule = scheduleOf(spec.schedule, errors, { fallback: DEFAULT_TOPOLOGY_SCHEDULE, minMillis: MIN_TOPOLOGY_SCHEDULE_MILLIS, what: 'topology' });
  const { schedule: _schedule, label, ...rest } = spec;
  if (label !== undefined) warnings.push('spec.label: use metadata.labels');
  const root = parseComponent(rest, 'spec', errors, warnings, false, TOPOLOGY_FIELDS);
  root.name = name;
  // Every CEL field (expr, healthExpr, statusExpr…) compiles at apply, named with its path and position.
  errors.push(...celFieldProblems(rest, 'spec'));
  if (errors.length === 0 && root.components.length === 0 && root.properties.length === 0 && root.checks.length === 0 && root.configs.length === 0 && root.selectors.length === 0) {
    errors.push({ path: 'spec', message: 'has nothing to show; add components, properties, checks or configs' });
  }
  return { schedule, root, errors, warnings };
}
