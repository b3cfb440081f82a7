import { z } from 'zod';
import { isRecord, messageOf } from '../../platform/errors';
import { evaluateCel } from '../../platform/expressions';
import { readFullDocument, type ScrapedAccess } from './access';
import { fingerprint, normalize } from './changes';
import { looksLikeJsonPath, queryAll, queryOne, removePath, replacePath } from './jsonpath';
import { kubernetesDefaults } from './kubernetes';
import { HEALTHS, type Health, type ItemRef, type RawResult, type RelationshipSelector, type ScrapedItem } from './types';
import { isOneOf } from '../../../common/guards';

/** A mapped field: a literal, a JSONPath (`$.name`), or `{expr: CEL}` / `{jsonpath}` / `{value}`. */
const fieldValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.object({ expr: z.string().optional(), jsonpath: z.string().optional(), value: z.unknown().optional(), label: z.string().optional() }).strict(),
]);
export type FieldValue = z.infer<typeof fieldValue>;

const tagList = z.array(z.object({ name: z.string().min(1), value: z.string().optional(), jsonpath: z.string().optional(), label: z.string().optional() }).strict());

const relationshipRule = z
  .object({
    filter: z.string().optional(),
    id: fieldValue.optional(),
    type: fieldValue.optional(),
    name: fieldValue.optional(),
    namespace: fieldValue.optional(),
    labels: z.record(z.string(), z.string()).optional(),
    parent: z.boolean().optional(),
    relation: z.string().optional(),
  })
  .strict();

export const transformSchema = z
  .object({
    exclude: z.array(z.object({ types: z.array(z.string()).optional(), jsonpath: z.string().min(1) }).strict()).optional(),
    mask: z.array(z.object({ selector: z.string().optional(), jsonpath: z.string().min(1), value: z.string().default('******') }).strict()).optional(),
    relationship: z.array(relationshipRule).optional(),
    expr: z.string().optional(),
  })
  .strict();

/** The BaseScraper fields every scraper type shares (config-db api/v1). */
export const mappingShape = {
  id: fieldValue.optional(),
  name: fieldValue.optional(),
  type: fieldValue.optional(),
  class: fieldValue.optional(),
  status: fieldValue.optional(),
  health: fieldValue.optional(),
  description: fieldValue.optional(),
  items: z.string().optional(),
  format: z.enum(['json', 'yaml', 'properties']).optional(),
  createFields: z.array(z.string()).optional(),
  deleteFields: z.array(z.string()).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  tags: z.union([z.record(z.string(), z.string()), tagList]).optional(),
  properties: z.array(z.record(z.string(), z.unknown())).optional(),
  transform: transformSchema.optional(),
};
export const mappingSchema = z.object(mappingShape);
export type Mapping = z.infer<typeof mappingSchema>;

/** A mapping problem with one result: the rest of the run goes on. */
export class MappingError extends Error {}

/** A full-form document without `config`: it carries access data only, no item. */
class NoItem extends Error {}

/**
 * spec.full (config-db): each result is a document with `config` (the item) beside `changes`, `analysis`
 * and access data (access.ts). Access data is collected in `access`; unreadable entries go to `error`.
 */
export interface FullMode {
  access: ScrapedAccess[];
  error(message: string): void;
}

function variables(config: unknown): Record<string, unknown> {
  return isRecord(config) ? { ...config, config } : { config };
}

function evaluate(where: string, value: FieldValue | undefined, config: unknown): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return looksLikeJsonPath(value) ? queryOne(config, value) : value;
  if (value.expr !== undefined) return evaluateCel(where, value.expr, variables(config));
  if (value.jsonpath !== undefined) return queryOne(config, value.jsonpath);
  if (value.label !== undefined && isRecord(config) && isRecord(config.metadata) && isRecord(config.metadata.labels)) return config.metadata.labels[value.label];
  return value.value;
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const shown = text(item);
    if (shown !== undefined) out[key] = shown;
  }
  return out;
}

function healthOf(value: unknown): Health | null {
  if (value === undefined || value === null || value === '') return null;
  const word = String(value).toLowerCase();
  if (isOneOf(HEALTHS, word)) return word;
  if (value === true || word === 'ok' || word === 'pass' || word === 'passing') return 'healthy';
  if (value === false || word === 'error' || word === 'failed' || word === 'fail' || word === 'critical') return 'unhealthy';
  if (word === 'warn' || word === 'degraded') return 'warning';
  return 'unknown';
}

function dateOf(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Splits a result by `items` (each selected value, arrays flattened, becomes its own result); without
 * `items`, a top-level list is a list of results.
 */
export function splitItems(result: RawResult, items: string | undefined): RawResult[] {
  if (!items) return Array.isArray(result.config) ? result.config.map((config: unknown) => ({ ...result, config })) : [result];
  const selected = queryAll(result.config, items).flatMap((value) => (Array.isArray(value) ? value : [value]));
  return selected.map((config) => ({ ...result, config, id: undefined, name: undefined, type: undefined }));
}

/**
 * Turns one raw result into an item: Kubernetes objects get their defaults (type Kubernetes::Kind, id,
 * namespace, labels, owners, health), then the entry's fields override them; transform.exclude and mask
 * apply to the stored config. Throws MappingError when the result has no id or type.
 */
export function mapResult(raw: RawResult, mapping: Mapping, where: string, full?: FullMode): ScrapedItem {
  // transform.expr: CEL that answers the config to keep (a reshaped or trimmed one) before anything else.
  let config = raw.config;
  if (mapping.transform?.expr !== undefined) {
    config = evaluateCel(`${where}.transform.expr`, mapping.transform.expr, variables(raw.config));
    if (!isRecord(config) && !Array.isArray(config)) throw new MappingError(`${where}.transform.expr: must answer a map (the config to keep), not ${JSON.stringify(config)}`);
  }
  // Full form: the fields read the whole document (as config-db's do), the item keeps its `config`.
  const docWhere = raw.source ? `${where} (${raw.source})` : where;
  const inner = full && isRecord(config) ? config.config : undefined;
  if (full && (inner === undefined || inner === null)) {
    const problems: string[] = [];
    const read = readFullDocument(config, docWhere, problems, {});
    for (const problem of problems) full.error(problem);
    if (read.access) full.access.push(read.access);
    if (read.changes.length > 0 || read.analysis.length > 0) full.error(`${docWhere}: changes and analysis need the document's config; left out`);
    throw new NoItem();
  }
  const k8s = kubernetesDefaults(full ? inner : config);
  const pick = (field: keyof Mapping & string) => evaluate(`${where}.${field}`, mapping[field] as FieldValue | undefined, config);

  const type = text(pick('type')) ?? raw.type ?? k8s?.type;
  if (!type) throw new MappingError(`${where}.type: is required (a name such as "Car", or a JSONPath)`);
  const idValue = mapping.id !== undefined ? pick('id') : undefined;
  const id = text(idValue) ?? raw.id ?? k8s?.externalIds[0];
  if (!id) {
    throw new MappingError(
      mapping.id !== undefined
        ? `${where}.id: ${JSON.stringify(mapping.id)} selects nothing in ${raw.source ?? 'the result'}`
        : `${where}.id: is required (a JSONPath such as $.id)`,
    );
  }
  const name = text(pick('name')) ?? raw.name ?? k8s?.name ?? id;

  const labels = { ...(k8s?.labels ?? {}), ...Object.fromEntries(Object.entries(mapping.labels ?? {}).map(([key, value]) => [key, looksLikeJsonPath(value) ? (text(queryOne(config, value)) ?? '') : value])) };
  const tags: Record<string, string> = { ...(k8s?.tags ?? {}) };
  if (Array.isArray(mapping.tags)) {
    for (const tag of mapping.tags) {
      const value = tag.jsonpath ? text(queryOne(config, tag.jsonpath)) : tag.label ? labels[tag.label] : tag.value;
      if (value !== undefined) tags[tag.name] = value;
    }
  } else if (mapping.tags) {
    for (const [key, value] of Object.entries(mapping.tags)) {
      const shown = looksLikeJsonPath(value) ? text(queryOne(config, value)) : value;
      if (shown !== undefined) tags[key] = shown;
    }
  }

  let document: ReturnType<typeof readFullDocument> | undefined;
  if (full) {
    const problems: string[] = [];
    document = readFullDocument(config, docWhere, problems, { type, externalId: id });
    for (const problem of problems) full.error(problem);
    if (document.access) full.access.push(document.access);
  }
  let stored: unknown = full ? inner : config;
  for (const rule of k8s?.exclude ?? []) stored = removePath(stored, rule);
  for (const rule of mapping.transform?.exclude ?? []) {
    if (!rule.types || rule.types.includes(type)) stored = removePath(stored, rule.jsonpath);
  }
  for (const rule of [...(k8s?.mask ?? []), ...(mapping.transform?.mask ?? [])]) {
    if (rule.selector && evaluateCel(`${where}.transform.mask.selector`, rule.selector, { ...variables(config), type }) !== true) continue;
    stored = replacePath(stored, rule.jsonpath, (old) => (rule.value === 'md5sum' || rule.value === 'sha256' ? `sha256:${fingerprint(normalize(old)).slice(0, 16)}` : rule.value));
  }

  const createField = (mapping.createFields ?? []).map((path) => dateOf(queryOne(config, path))).find((date) => date !== null);
  const deleteField = (mapping.deleteFields ?? []).map((path) => dateOf(queryOne(config, path))).find((date) => date !== null);
  const deletedAt = deleteField ?? k8s?.deletedAt ?? null;

  const selectors: RelationshipSelector[] = [];
  (mapping.transform?.relationship ?? []).forEach((rule, index) => {
    const ruleWhere = `${where}.transform.relationship[${index}]`;
    if (rule.filter !== undefined && evaluateCel(`${ruleWhere}.filter`, rule.filter, { ...variables(config), type, name }) !== true) return;
    const field = (value: FieldValue | undefined, key: string) => text(evaluate(`${ruleWhere}.${key}`, value, config));
    const selector: RelationshipSelector = { parent: rule.parent ?? false, relation: rule.relation ?? '', rule: `rule:${index}` };
    const selectedId = field(rule.id, 'id');
    const selectedType = field(rule.type, 'type');
    const selectedName = field(rule.name, 'name');
    const selectedNamespace = field(rule.namespace, 'namespace');
    if (selectedId !== undefined) selector.id = selectedId;
    if (selectedType !== undefined) selector.type = selectedType;
    if (selectedName !== undefined) selector.name = selectedName;
    if (selectedNamespace !== undefined) selector.namespace = selectedNamespace;
    if (rule.labels) selector.labels = rule.labels;
    // A rule whose fields all came out empty would match everything: it matches nothing instead.
    if (selector.id ?? selector.type ?? selector.name ?? selector.namespace ?? selector.labels) selectors.push(selector);
  });

  const parents: ItemRef[] = [...(k8s?.parents ?? [])];
  return {
    externalIds: [...new Set([id, ...(k8s?.externalIds ?? []).filter((other) => other !== id)])],
    type,
    configClass: text(pick('class')) ?? k8s?.configClass ?? type,
    name,
    namespace: k8s?.namespace ?? tags.namespace ?? null,
    description: text(pick('description')) ?? null,
    status: text(pick('status')) ?? k8s?.status ?? null,
    health: mapping.health !== undefined ? healthOf(pick('health')) : (k8s?.health ?? null),
    ready: k8s?.ready ?? null,
    labels,
    tags,
    properties: mapping.properties ?? null,
    config: stored,
    source: raw.source ?? null,
    createdAt: createField ?? k8s?.createdAt ?? null,
    deletedAt,
    deleteReason: deleteField ? 'FROM_DELETE_FIELD' : deletedAt ? 'FROM_ATTRIBUTE' : null,
    parents,
    relationships: k8s?.relationships ?? [],
    selectors,
    changes: [...(raw.changes ?? []), ...(document?.changes ?? [])],
    analysis: [...(raw.analysis ?? []), ...(document?.analysis ?? []), ...(k8s?.analysis ?? [])],
  };
}

/**
 * Maps every result of one spec entry. A result that cannot be mapped is reported through `error` and
 * skipped; the others are kept.
 */
export function mapResults(results: RawResult[], mapping: Mapping, where: string, error: (message: string) => void, access?: ScrapedAccess[]): ScrapedItem[] {
  const items: ScrapedItem[] = [];
  const full: FullMode | undefined = access ? { access, error } : undefined;
  for (const result of results) {
    for (const one of splitItems(result, mapping.items)) {
      try {
        items.push(mapResult(one, mapping, where, full));
      } catch (problem) {
        if (problem instanceof NoItem) continue;
        error(problem instanceof MappingError ? problem.message : `${where}: ${messageOf(problem)}`);
      }
    }
  }
  return items;
}
