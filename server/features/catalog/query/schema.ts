import { z } from 'zod';
import { CHANGES_RECURSIVE_DEPTH, DEFAULT_PAGE_SIZE, RELATED_CONFIGS_MAX_DEPTH } from '../../../../common/constants';
import { valueFilter, type ValueFilter } from './sql';

/**
 * Input schemas of the catalog's query endpoints (spec §7 Catalog and Resource search). Filter values are
 * a string (a comma list) or an array of strings; a leading `!` excludes a value, `*` is a wildcard.
 */

const uuid = z.uuid({ message: 'must be a UUID' });
const bool = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((value) => value === true || value === 'true');
const count = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)], { message: 'must be a whole number' })
    .pipe(z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** A value filter: `"a,b,!c"` or `["a", "!c"]`. */
export const filterValue = z
  .union([z.string().max(2000), z.array(z.string().max(500)).max(100)], { message: 'must be a string or a list of strings' })
  .transform((value): ValueFilter => valueFilter(value));

/** A tag or label key as Kubernetes allows it (prefix/name). */
const mapKey = z.string().regex(/^[A-Za-z0-9_.\/-]{1,253}$/, 'must be a tag key (letters, digits, _ . / -)');

/**
 * Tags or labels to match: `{key: value}` (each value a value filter), or the text `key=value,key!=value`.
 */
export const keyValues = z
  .union([
    z.record(mapKey, z.union([z.string().max(2000), z.array(z.string().max(500)).max(100)])),
    z.string().max(4000),
  ], { message: 'must be a map of key to value, or key=value pairs' })
  .transform((value, ctx): Record<string, ValueFilter> => {
    const out: Record<string, ValueFilter> = {};
    if (typeof value !== 'string') {
      for (const [key, filter] of Object.entries(value)) out[key] = valueFilter(filter);
      return out;
    }
    for (const pair of value.split(',').map((part) => part.trim()).filter(Boolean)) {
      const match = /^([A-Za-z0-9_.\/-]{1,253})\s*(!=|==|=)\s*(.*)$/.exec(pair);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `"${pair.slice(0, 100)}" is not key=value or key!=value` });
        continue;
      }
      const [, key = '', operator, item = ''] = match;
      const filter = out[key] ?? { include: [], exclude: [] };
      (operator === '!=' ? filter.exclude : filter.include).push(item.trim());
      out[key] = filter;
    }
    return out;
  });

// ---------------------------------------------------------------------------------------------- summary

/** Item columns a summary may group by; any other key is a tag key (`tags.<key>` and `labels.<key>` say so). */
export const GROUP_COLUMNS = ['type', 'config_class', 'status', 'health', 'namespace', 'agent_id', 'source'] as const;
export type GroupColumn = (typeof GROUP_COLUMNS)[number];

const groupKey = z.string().regex(/^[A-Za-z0-9_.\/-]{1,260}$/, `must be one of ${GROUP_COLUMNS.join(', ')}, a tag key, tags.<key> or labels.<key>`);

export const summaryBody = z
  .object({
    groupBy: z
      .array(groupKey)
      .min(1, 'must name at least one key')
      .max(5, 'can group by at most 5 keys')
      .transform((keys) => [...new Set(keys)])
      .default(['type']),
    filter: z
      .object({
        type: filterValue.optional(),
        config_class: filterValue.optional(),
        status: filterValue.optional(),
        health: filterValue.optional(),
        namespace: filterValue.optional(),
        agent_id: filterValue.optional(),
        /** Words the name must contain. */
        search: z.string().max(500).optional(),
        labels: keyValues.optional(),
        tags: keyValues.optional(),
      })
      .strict()
      .default({}),
    /** Also count deleted items (default: live items only). */
    deleted: bool.default(false),
    /** Changes counted since (a duration such as 7d, or a date-time); default 7d. */
    changes: z.object({ since: z.string().max(100).default('7d') }).strict().default({ since: '7d' }),
    /** Open insights counted, optionally only those seen since. */
    analysis: z.object({ since: z.string().max(100).optional() }).strict().default({}),
  })
  .strict();
export type SummaryBody = z.output<typeof summaryBody>;

// ---------------------------------------------------------------------------------------------- changes

export const CHANGE_SORT_KEYS = ['created_at', 'first_observed', 'severity', 'change_type', 'config_type', 'count', 'source', 'name'] as const;
export type ChangeSortKey = (typeof CHANGE_SORT_KEYS)[number];
const SORT_INPUTS = [...CHANGE_SORT_KEYS, ...CHANGE_SORT_KEYS.map((key) => `-${key}` as const)];
/** `created_at` ascending, `-created_at` descending. */
const sortBy = z
  .enum(SORT_INPUTS, { message: `must be one of ${CHANGE_SORT_KEYS.join(', ')}, with a leading - for descending` })
  .default('-created_at')
  .transform((value) => {
    const descending = value.startsWith('-');
    const name = descending ? value.slice(1) : value;
    return { key: CHANGE_SORT_KEYS.find((key) => key === name) ?? 'created_at', descending };
  });

/** up: the item's parents and what relates to it (incoming); down: its children and what it relates to (outgoing). */
const RECURSIVE = { none: 'none', up: 'incoming', upstream: 'incoming', down: 'outgoing', downstream: 'outgoing', all: 'all', both: 'all' } as const;
type RecursiveInput = keyof typeof RECURSIVE;
const recursiveNames = Object.keys(RECURSIVE) as [RecursiveInput, ...RecursiveInput[]];

export const changesBody = z
  .object({
    /** One item's changes (with `recursive`, also those of related items). */
    id: uuid.optional(),
    config_type: filterValue.optional(),
    /** Change types: `diff,Pulled`, `!BackOff`. */
    type: filterValue.optional(),
    severity: filterValue.optional(),
    source: filterValue.optional(),
    /** `now-7d`, `7d` (7 days ago) or a date-time; `to` defaults to now. */
    from: z.string().max(100).optional(),
    to: z.string().max(100).optional(),
    page: count(1, 1_000_000).default(1),
    page_size: count(1, 500).default(DEFAULT_PAGE_SIZE),
    sort_by: sortBy,
    /** The changed item's tags. */
    tags: keyValues.optional(),
    recursive: z.enum(recursiveNames, { message: 'must be up, down, all or none' }).default('none').transform((value) => RECURSIVE[value]),
    /** Spec §9: changes recursive depth 5; related configs go at most 10 deep. */
    depth: count(1, RELATED_CONFIGS_MAX_DEPTH).default(CHANGES_RECURSIVE_DEPTH),
    include_deleted_configs: bool.default(false),
    /** Only the summary and total, no page of changes. */
    summary_only: bool.default(false),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.recursive !== 'none' && !body.id) ctx.addIssue({ code: 'custom', path: ['recursive'], message: 'needs id: the item whose related items to include' });
  });
export type ChangesBody = z.output<typeof changesBody>;

// ---------------------------------------------------------------------------------------------- search

export const RESOURCE_KINDS = ['checks', 'components', 'configs', 'connections', 'playbooks'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

const selector = z
  .object({
    id: uuid.optional(),
    /** Words in the name, or `key=value` terms (name, type, namespace, health, status, agent; other keys are tags). */
    search: z.string().max(500).optional(),
    /** An agent id, or its name ('local' is this instance). */
    agent: z.string().max(255).optional(),
    /** The exact name (`*` is a wildcard). */
    name: z.string().max(500).optional(),
    types: filterValue.optional(),
    /** `key=value,key!=value,key,!key` over the tags (checks: labels). */
    tag_selector: z.string().max(2000).optional(),
    limit: count(1, 1000).default(50),
  })
  .strict();
export type Selector = z.output<typeof selector>;

const selectors = z.array(selector).max(20, 'at most 20 selectors per kind');

export const searchBody = z
  .object({ checks: selectors.optional(), components: selectors.optional(), configs: selectors.optional(), connections: selectors.optional(), playbooks: selectors.optional() })
  .strict();
export type SearchBody = z.output<typeof searchBody>;
