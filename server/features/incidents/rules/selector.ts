import { z } from 'zod';
import { parseLabelSelector, type Requirement } from '../../../platform/label-selector';

export type Kind = 'check' | 'component' | 'config';

/**
 * A list with Mission Control's `Items` semantics: `*` is anything, `!x` excludes x, an empty list is
 * anything. Written as a list or as one comma-separated text.
 */
export interface Items {
  include: string[];
  exclude: string[];
}

export function itemsOf(raw: string | string[] | undefined, extra: string[] = []): Items | undefined {
  const list = [...(raw === undefined ? [] : Array.isArray(raw) ? raw : raw.split(',')), ...extra].map((item) => item.trim()).filter((item) => item !== '');
  if (list.length === 0) return undefined;
  const include = list.filter((item) => !item.startsWith('!'));
  return { include: include.includes('*') ? [] : include, exclude: list.filter((item) => item.startsWith('!')).map((item) => item.slice(1)) };
}

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const text = z.string().trim().min(1, 'must not be empty');
const items = z.union([z.string(), z.array(z.string())], { message: 'must be a list of texts' });
const selectorText = z.string().refine((value) => parseLabelSelector(value) !== undefined, 'is not a label selector (such as "app=web,tier!=db,env in (a,b)")');

/**
 * What a rule watches, as our own format and Mission Control's (its ComponentSelector and duty's
 * ResourceSelector) write it. Every field given must match; `*` in a name is a wildcard.
 */
export const selectorSchema = z
  .object({
    id: text.optional(),
    name: text.optional(),
    names: items.optional(),
    namespace: text.optional(),
    type: text.optional(),
    types: items.optional(),
    labels: z.record(z.string(), scalar, { message: 'must be a mapping of label to value' }).optional(),
    labelSelector: selectorText.optional(),
    tagSelector: selectorText.optional(),
    statuses: items.optional(),
    health: items.optional(),
    // Read and reported (selectorWarnings), not run.
    selector: z.string().optional(),
    fieldSelector: z.string().optional(),
    agent: z.string().optional(),
    scope: z.string().optional(),
    cache: z.string().optional(),
    search: z.string().optional(),
    limit: z.number().int().optional(),
    includeDeleted: z.boolean().optional(),
  })
  .strict();
export type RawSelector = z.infer<typeof selectorSchema>;

/** A selector as the engine runs it. */
export interface RuleSelector {
  id?: string;
  /** Name patterns (`*` wildcard), any of which may match. */
  names: string[];
  namespace?: string;
  types?: Items;
  labels?: Record<string, string>;
  requirements: Requirement[];
  tagRequirements: Requirement[];
  statuses?: Items;
  health?: Items;
}

export function toRuleSelector(raw: RawSelector): RuleSelector {
  return {
    ...(raw.id ? { id: raw.id } : {}),
    names: [...(raw.name ? [raw.name] : []), ...(itemsOf(raw.names)?.include ?? [])],
    ...(raw.namespace ? { namespace: raw.namespace } : {}),
    ...(itemsOf(raw.types, raw.type ? [raw.type] : []) ? { types: itemsOf(raw.types, raw.type ? [raw.type] : []) } : {}),
    ...(raw.labels && Object.keys(raw.labels).length > 0 ? { labels: raw.labels } : {}),
    requirements: raw.labelSelector ? (parseLabelSelector(raw.labelSelector) ?? []) : [],
    tagRequirements: raw.tagSelector ? (parseLabelSelector(raw.tagSelector) ?? []) : [],
    ...(itemsOf(raw.statuses) ? { statuses: itemsOf(raw.statuses) } : {}),
    ...(itemsOf(raw.health) ? { health: itemsOf(raw.health) } : {}),
  };
}

const NOT_RUN: Partial<Record<keyof RawSelector, string>> = {
  selector: 'the older selector text is not read; use labelSelector',
  fieldSelector: 'field selectors are not supported',
  agent: 'every resource here is matched whatever agent reported it',
  scope: 'scopes are not supported',
  cache: 'not needed: the rules read the database directly',
  search: 'search queries are not supported in rule selectors',
  limit: 'every matching resource is watched',
  includeDeleted: 'deleted resources never open incidents',
};

/** The fields of a selector this engine reads but does not run, each named with its path. */
export function selectorWarnings(raw: RawSelector, where: string, kind: Kind): string[] {
  const warnings: string[] = [];
  for (const [key, reason] of Object.entries(NOT_RUN)) {
    if (Object.hasOwn(raw, key)) warnings.push(`${where}.${key}: ${reason}; ignored`);
  }
  if (raw.namespace && kind === 'component') warnings.push(`${where}.namespace: components have no namespace in this console; ignored`);
  if (raw.tagSelector && kind !== 'config') warnings.push(`${where}.tagSelector: only config items have tags; ignored`);
  return warnings;
}

/** SQL builder over the resource alias `r`: every value is a bound parameter. */
export class SqlValues {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function itemsSql(column: string, list: Items, sql: SqlValues): string[] {
  const parts: string[] = [];
  if (list.include.length > 0) parts.push(`${column} = ANY(${sql.add(list.include)}::text[])`);
  if (list.exclude.length > 0) parts.push(`coalesce(${column}, '') <> ALL(${sql.add(list.exclude)}::text[])`);
  return parts;
}

function requirementSql(column: string, requirement: Requirement, sql: SqlValues): string {
  const key = sql.add(requirement.key);
  switch (requirement.op) {
    case 'exists':
      return `${column} ? ${key}`;
    case '!exists':
      return `NOT (${column} ? ${key})`;
    case 'in':
      return `${column}->>${key} = ANY(${sql.add(requirement.values)}::text[])`;
    case 'notin':
      return `(${column}->>${key} IS NULL OR ${column}->>${key} <> ALL(${sql.add(requirement.values)}::text[]))`;
  }
}

/** A selector as SQL over alias r; `health` is the SQL of the resource's health. */
export function selectorSql(kind: Kind, selector: RuleSelector, health: string, sql: SqlValues): string {
  const parts: string[] = [];
  if (selector.id) parts.push(`r.id::text = ${sql.add(selector.id)}`);
  if (selector.names.length > 0) {
    const patterns = selector.names.map((name) => name.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%'));
    parts.push(`r.name LIKE ANY(${sql.add(patterns)}::text[])`);
  }
  if (selector.namespace && kind !== 'component') parts.push(`r.namespace = ${sql.add(selector.namespace)}`);
  if (selector.types) parts.push(...itemsSql('r.type', selector.types, sql));
  if (selector.labels) parts.push(`r.labels @> ${sql.add(JSON.stringify(selector.labels))}::jsonb`);
  for (const requirement of selector.requirements) parts.push(requirementSql('r.labels', requirement, sql));
  if (kind === 'config') for (const requirement of selector.tagRequirements) parts.push(requirementSql('r.tags', requirement, sql));
  if (selector.statuses) parts.push(...itemsSql('r.status', selector.statuses, sql));
  if (selector.health) parts.push(...itemsSql(health, selector.health, sql));
  return parts.length > 0 ? `(${parts.join(' AND ')})` : 'true';
}
