import type { ComponentHealth, ComponentProperty } from '../../../common/topology';
import { isRecord, messageOf } from '../../platform/errors';
import type pg from 'pg';
import type { Queryable } from '../../platform/jobs/db';
import type { Logger } from '../../platform/logger';
import { withoutSecrets } from '../../platform/peers/credentials';
import { queryOne, runnableEntry } from '../catalog';
import { evaluateCel, renderTemplate } from '../../platform/expressions';
import { asHealth } from './rollup';
import { selectChecks, selectComponents, selectConfigs, type SelectedCheck, type SelectedConfig } from './selectors';
import { parseForEach, type ComponentSpec, type ConfigSelector, type ForEachSpec, type PropertySpec } from './spec';

/** A component as a run builds it, before it is stored. */
export interface BuiltComponent {
  /** Stable within the topology: the names (or ids) from the root down, joined by '/'. */
  externalId: string;
  name: string;
  text: string | null;
  type: string | null;
  icon: string | null;
  owner: string | null;
  tooltip: string | null;
  description: string | null;
  labels: Record<string, string>;
  properties: ComponentProperty[];
  hidden: boolean;
  /** Its own health (set, from an expression, or from the config or check it was looked up from). */
  own: ComponentHealth | null;
  /** Its own health and status are its config's: stored empty and read live (read.ts). */
  ownFromConfig: boolean;
  status: string | null;
  statusReason: string | null;
  configId: string | null;
  checks: Map<string, SelectedCheck>;
  configs: Map<string, SelectedConfig>;
  /** Components of other topologies shown under this one (component_relationships). */
  related: Set<string>;
  children: BuiltComponent[];
  order: number;
}

export interface BuildContext {
  db: Queryable;
  /** Where lookups read the secrets and connections they name (the topology's namespace). */
  pool: pg.Pool;
  namespace: string;
  topologyId: string;
  signal: AbortSignal;
  log: Logger;
  /** A problem with one component or lookup: recorded in the run's errors, the others still build. */
  error(message: string): void;
}

/** At most this many components per topology: a lookup that finds more is reported, not stored. */
export const MAX_COMPONENTS = 100_000;

function propertyColor(property: PropertySpec, value: number | undefined): string | undefined {
  if (property.color) return property.color;
  if (value === undefined) return undefined;
  if (property.critical !== undefined && value >= property.critical) return 'red';
  if (property.warning !== undefined && value >= property.warning) return 'orange';
  if (property.critical !== undefined || property.warning !== undefined) return 'green';
  return undefined;
}

function plainProperty(spec: PropertySpec, text: string | undefined, value: number | undefined): ComponentProperty {
  const property: ComponentProperty = { name: spec.name };
  if (spec.label) property.label = spec.label;
  if (text !== undefined) property.text = text;
  if (value !== undefined) property.value = value;
  if (spec.unit) property.unit = spec.unit;
  const type = spec.type ?? (value !== undefined ? 'number' : text && /^https?:\/\//.test(text) ? 'url' : undefined);
  if (type) property.type = type;
  const color = propertyColor(spec, value);
  if (color) property.color = color;
  if (spec.headline) property.headline = true;
  if (spec.tooltip) property.tooltip = spec.tooltip;
  if (spec.icon) property.icon = spec.icon;
  if (spec.min !== undefined) property.min = spec.min;
  if (spec.max !== undefined) property.max = spec.max;
  return property;
}

/** A value from an expression or a config: numbers stay numbers, the rest is text. */
function split(value: unknown): { text?: string; value?: number } {
  if (typeof value === 'number' && Number.isFinite(value)) return { value };
  if (value === undefined || value === null) return {};
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) && /^-?[\d.]+$/.test(value.trim())) return { value: Number(value) };
  return { text: typeof value === 'string' ? value : JSON.stringify(value) };
}

function componentVariables(component: BuiltComponent, config?: SelectedConfig | undefined): Record<string, unknown> {
  return {
    component: {
      name: component.name,
      text: component.text,
      type: component.type,
      owner: component.owner,
      labels: component.labels,
      health: component.own,
      status: component.status,
      properties: Object.fromEntries(component.properties.map((property) => [property.name, property.value ?? property.text ?? null])),
      config: config?.config,
      config_id: component.configId,
    },
  };
}

async function resolveProperties(specs: PropertySpec[], component: BuiltComponent, ctx: BuildContext, where: string): Promise<ComponentProperty[]> {
  const out: ComponentProperty[] = [];
  for (const [index, spec] of specs.entries()) {
    const at = `${where}.properties[${index}]`;
    try {
      let text = spec.text;
      let value = spec.value;
      if (spec.configLookup) {
        const [config] = await selectConfigs(ctx.db, spec.configLookup.config, { withConfig: true });
        if (!config) {
          ctx.error(`${at}.configLookup: no config matches`);
        } else {
          const raw = spec.configLookup.display
            ? evaluateCel(`${at}.configLookup.display.expr`, spec.configLookup.display.expr, { config })
            : spec.configLookup.field
              ? queryOne(config.config, spec.configLookup.field)
              : config.name;
          ({ text, value } = { text: undefined, value: undefined, ...split(raw) });
        }
      }
      if (spec.expr) ({ text, value } = { text: undefined, value: undefined, ...split(evaluateCel(`${at}.expr`, spec.expr, componentVariables(component))) });
      out.push(plainProperty(spec, text, value));
    } catch (error) {
      ctx.error(`${at}: ${messageOf(error)}`);
    }
  }
  return out;
}

function newComponent(externalId: string, name: string, order: number): BuiltComponent {
  return {
    externalId, name, text: null, type: null, icon: null, owner: null, tooltip: null, description: null, labels: {}, properties: [], hidden: false,
    own: null, ownFromConfig: false, status: null, statusReason: null, configId: null, checks: new Map(), configs: new Map(), related: new Set(), children: [], order,
  };
}

/** Attaches what a spec (or a forEach) selects: checks, configs and other topologies' components. */
async function attach(component: BuiltComponent, spec: Pick<ComponentSpec, 'checks' | 'configs' | 'selectors'>, ctx: BuildContext, where: string) {
  for (const [index, selector] of spec.checks.entries()) {
    try {
      for (const check of await selectChecks(ctx.db, selector)) component.checks.set(check.id, check);
    } catch (error) {
      ctx.error(`${where}.checks[${index}]: ${messageOf(error)}`);
    }
  }
  for (const [index, selector] of spec.configs.entries()) {
    try {
      for (const config of await selectConfigs(ctx.db, selector)) component.configs.set(config.id, config);
    } catch (error) {
      ctx.error(`${where}.configs[${index}]: ${messageOf(error)}`);
    }
  }
  for (const [index, selector] of spec.selectors.entries()) {
    try {
      for (const id of await selectComponents(ctx.db, selector, ctx.topologyId)) component.related.add(id);
    } catch (error) {
      ctx.error(`${where}.selectors[${index}]: ${messageOf(error)}`);
    }
  }
}

/** Own health from an expression over what the component has: component, checks, configs, children. */
function evaluateHealth(component: BuiltComponent, healthExpr: string | undefined, statusExpr: string | undefined, where: string, ctx: BuildContext) {
  if (!healthExpr && !statusExpr) return;
  const variables = {
    ...componentVariables(component),
    checks: [...component.checks.values()].map((check) => ({ name: check.name, type: check.type, status: check.status })),
    configs: [...component.configs.values()].map((config) => ({ name: config.name, type: config.type, health: config.health, status: config.status })),
    children: component.children.map((child) => ({ name: child.name, type: child.type, health: child.own, status: child.status })),
  };
  try {
    if (healthExpr) {
      const value = evaluateCel(`${where}.healthExpr`, healthExpr, variables);
      if (typeof value !== 'string' || asHealth(value) !== value) throw new Error(`healthExpr returned ${JSON.stringify(value)}, not healthy, unhealthy, warning or unknown`);
      component.own = asHealth(value);
    }
    if (statusExpr) {
      const value = evaluateCel(`${where}.statusExpr`, statusExpr, variables);
      component.status = value === null || value === undefined ? null : String(value);
      if (component.status) component.statusReason = component.status;
    }
  } catch (error) {
    ctx.error(messageOf(error));
  }
}

/** Renders `{{.component.name}}` templates in every text of a forEach for one looked-up component. */
function renderForEach(raw: Record<string, unknown>, variables: Record<string, unknown>, where: string): unknown {
  const render = (value: unknown): unknown => {
    if (typeof value === 'string') return value.includes('{{') ? renderTemplate(where, value, variables) : value;
    if (Array.isArray(value)) return value.map(render);
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, render(item)]));
    return value;
  };
  return render(raw);
}

async function applyForEach(child: BuiltComponent, spec: ComponentSpec, config: SelectedConfig | undefined, ctx: BuildContext, counter: { count: number }) {
  if (!spec.forEach || !spec.forEachRaw) return;
  const where = `${spec.where}.forEach`;
  let forEach: ForEachSpec | undefined;
  try {
    const errors: Array<{ path: string; message: string }> = [];
    forEach = parseForEach(renderForEach(spec.forEachRaw, componentVariables(child, config), where), where, errors, []);
    for (const problem of errors) ctx.error(`${child.name}: ${problem.path}: ${problem.message}`);
  } catch (error) {
    ctx.error(`${child.name}: ${messageOf(error)}`);
    return;
  }
  if (!forEach) return;
  child.labels = { ...child.labels, ...forEach.labels };
  child.properties.push(...(await resolveProperties(forEach.properties, child, ctx, where)));
  await attach(child, forEach, ctx, where);
  for (const [index, grandchild] of forEach.components.entries()) {
    child.children.push(await buildComponent(grandchild, child.externalId, index, ctx, counter));
  }
  if (forEach.health || forEach.healthExpr) child.ownFromConfig = false;
  if (forEach.health) child.own = forEach.health;
  if (forEach.status) {
    child.status = forEach.status;
    child.ownFromConfig = false;
  }
  evaluateHealth(child, forEach.healthExpr, undefined, where, ctx);
}

function fromConfig(parent: string, config: SelectedConfig, order: number): BuiltComponent {
  const child = newComponent(`${parent}/config:${config.id}`, config.name ?? config.id, order);
  child.type = config.type;
  child.own = config.health ? asHealth(config.health) : null;
  child.status = config.status;
  if (config.status && child.own && child.own !== 'healthy') child.statusReason = config.status;
  child.configId = config.id;
  child.ownFromConfig = true;
  child.labels = { ...config.labels, ...config.tags };
  child.configs.set(config.id, config);
  return child;
}

function fromCheck(parent: string, check: SelectedCheck, order: number): BuiltComponent {
  const child = newComponent(`${parent}/check:${check.id}`, check.name, order);
  child.type = check.type;
  child.icon = check.icon;
  child.own = check.status ? asHealth(check.status) : null;
  child.labels = { ...check.labels };
  child.checks.set(check.id, check);
  return child;
}

const RESULT_FIELDS = new Set(['id', 'name', 'text', 'type', 'icon', 'owner', 'tooltip', 'description', 'health', 'status', 'labels', 'properties', 'hidden']);

/** A component map from a lookup's results (a row, an API item, or what display.expr answered). */
function fromResult(parent: string, result: unknown, where: string, order: number): BuiltComponent {
  if (!isRecord(result)) throw new Error(`${where}: result ${order + 1} is not a mapping with a name`);
  const name = result.name ?? result.id;
  if (name === undefined || name === null || String(name).trim() === '') throw new Error(`${where}: result ${order + 1} has no name`);
  const child = newComponent(`${parent}/${String(result.id ?? name)}`, String(name), order);
  for (const key of ['text', 'type', 'icon', 'owner', 'tooltip', 'description', 'status'] as const) {
    const value = result[key];
    if (value !== undefined && value !== null && value !== '') child[key] = String(value);
  }
  if (typeof result.health === 'string') child.own = asHealth(result.health);
  if (result.hidden === true) child.hidden = true;
  if (isRecord(result.labels)) child.labels = Object.fromEntries(Object.entries(result.labels).map(([key, value]) => [key, String(value)]));
  if (Array.isArray(result.properties)) {
    for (const property of result.properties) {
      if (!isRecord(property) || typeof property.name !== 'string') continue;
      const parts = split(property.value ?? property.text);
      child.properties.push(plainProperty({ name: property.name, ...(typeof property.unit === 'string' ? { unit: property.unit } : {}) }, parts.text, parts.value));
    }
  }
  // Other plain fields of a row (size_mb, replicas, …) become properties.
  for (const [key, value] of Object.entries(result)) {
    if (RESULT_FIELDS.has(key) || value === null || value === undefined || typeof value === 'object') continue;
    const parts = split(value);
    child.properties.push(plainProperty({ name: key }, parts.text, parts.value));
  }
  return child;
}

async function lookupChildren(spec: ComponentSpec, parent: BuiltComponent, ctx: BuildContext, counter: { count: number }): Promise<void> {
  const lookup = spec.lookup;
  if (!lookup) return;
  const where = `${spec.where}.lookup`;
  const add = async (child: BuiltComponent, config?: SelectedConfig) => {
    counter.count += 1;
    if (counter.count > MAX_COMPONENTS) throw new Error(`more than ${MAX_COMPONENTS} components: narrow the lookups`);
    await applyForEach(child, spec, config, ctx, counter);
    parent.children.push(child);
  };
  const withConfig = Boolean(spec.forEachRaw && JSON.stringify(spec.forEachRaw).includes('.component.config'));
  for (const [index, selector] of (lookup.configs ?? []).entries()) {
    try {
      const configs = await selectConfigs(ctx.db, selector as ConfigSelector, { withConfig });
      for (const config of configs) await add(fromConfig(parent.externalId, config, parent.children.length), config);
    } catch (error) {
      ctx.error(`${where}.configs[${index}]: ${messageOf(error)}`);
    }
  }
  for (const [index, selector] of (lookup.checks ?? []).entries()) {
    try {
      for (const check of await selectChecks(ctx.db, selector)) await add(fromCheck(parent.externalId, check, parent.children.length));
    } catch (error) {
      ctx.error(`${where}.checks[${index}]: ${messageOf(error)}`);
    }
  }
  for (const [index, selector] of (lookup.components ?? []).entries()) {
    try {
      for (const id of await selectComponents(ctx.db, selector, ctx.topologyId)) parent.related.add(id);
    } catch (error) {
      ctx.error(`${where}.components[${index}]: ${messageOf(error)}`);
    }
  }
  const results: unknown[] = [];
  for (const entry of lookup.sources) {
    let secrets: string[] = [];
    try {
      const runnable = await runnableEntry(ctx.pool, entry.source, entry.raw, entry.entry, ctx.namespace, entry.where);
      secrets = runnable.secrets;
      const raw = await entry.source.scrape(runnable.entry, { scraperId: ctx.topologyId, namespace: ctx.namespace, signal: ctx.signal, log: ctx.log, error: (message) => ctx.error(`${entry.where}: ${withoutSecrets(message, secrets)}`) });
      for (const result of raw) {
        if (Array.isArray(result.config)) results.push(...result.config);
        else results.push(result.config);
      }
    } catch (error) {
      const message = withoutSecrets(messageOf(error), secrets);
      ctx.error(message.startsWith(entry.where) ? message : `${entry.where}: ${message}`);
    }
  }
  if (lookup.sources.length === 0) return;
  let items: unknown[] = results;
  if (lookup.display) {
    try {
      let shown = evaluateCel(`${where}.display.expr`, lookup.display.expr, { results });
      if (typeof shown === 'string') shown = JSON.parse(shown);
      if (!Array.isArray(shown)) throw new Error(`${where}.display.expr: returned ${typeof shown}, not a list of components`);
      items = shown;
    } catch (error) {
      ctx.error(messageOf(error));
      return;
    }
  }
  for (const [index, item] of items.entries()) {
    try {
      await add(fromResult(parent.externalId, item, where, index));
    } catch (error) {
      ctx.error(messageOf(error));
    }
  }
}

async function buildComponent(spec: ComponentSpec, parentExternalId: string | null, order: number, ctx: BuildContext, counter: { count: number }): Promise<BuiltComponent> {
  if (ctx.signal.aborted) throw new Error('the run was stopped');
  counter.count += 1;
  const key = spec.id ?? spec.name ?? `${order}`;
  const component = newComponent(parentExternalId === null ? key : `${parentExternalId}/${key}`, spec.name ?? spec.type ?? `component ${order + 1}`, order);
  component.text = spec.text ?? null;
  component.type = spec.type ?? null;
  component.icon = spec.icon ?? null;
  component.owner = spec.owner ?? null;
  component.tooltip = spec.tooltip ?? null;
  component.description = spec.description ?? null;
  component.labels = { ...spec.labels };
  component.hidden = spec.hidden;
  component.own = spec.health ?? null;
  component.status = spec.status ?? null;
  await attach(component, spec, ctx, spec.where);
  for (const [index, child] of spec.components.entries()) component.children.push(await buildComponent(child, component.externalId, index, ctx, counter));
  await lookupChildren(spec, component, ctx, counter);
  component.properties = await resolveProperties(spec.properties, component, ctx, spec.where);
  evaluateHealth(component, spec.healthExpr, spec.statusExpr, spec.where, ctx);
  return component;
}

/** Builds a topology's tree: the root (the topology itself) and everything below it. */
export async function buildTopology(root: ComponentSpec, meta: { name: string; icon: string | null; labels: Record<string, string> }, ctx: BuildContext): Promise<BuiltComponent> {
  const built = await buildComponent({ ...root, name: meta.name, labels: { ...meta.labels, ...root.labels } }, null, 0, ctx, { count: 0 });
  if (!built.icon && meta.icon) built.icon = meta.icon;
  return built;
}

/**
 * Every component of a tree, parents before children. Two siblings with the same id (two results named
 * alike) keep both: the second becomes "name#2".
 */
export function flatten(root: BuiltComponent): Array<{ component: BuiltComponent; parent: BuiltComponent | null }> {
  const out: Array<{ component: BuiltComponent; parent: BuiltComponent | null }> = [];
  const seen = new Map<string, number>();
  const walk = (component: BuiltComponent, parent: BuiltComponent | null) => {
    if (parent && !component.externalId.startsWith(`${parent.externalId}/`)) {
      component.externalId = `${parent.externalId}/${component.externalId.split('/').pop() ?? component.name}`;
    }
    const times = (seen.get(component.externalId) ?? 0) + 1;
    seen.set(component.externalId, times);
    if (times > 1) component.externalId = `${component.externalId}#${times}`;
    out.push({ component, parent });
    for (const child of component.children) walk(child, component);
  };
  walk(root, null);
  return out;
}
