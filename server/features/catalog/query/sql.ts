import { likePattern } from '../../../platform/search';

/** Bound parameters of one statement: every value is `$n`, never text in the SQL. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

/**
 * A filter value of the catalog APIs: one value, a comma list, or an array. A leading `!` excludes the
 * value (the tri-state include/exclude of the catalog filters), `*` matches anything.
 */
export interface ValueFilter {
  include: string[];
  exclude: string[];
}

export function valueFilter(input: string | readonly string[] | undefined): ValueFilter {
  const filter: ValueFilter = { include: [], exclude: [] };
  const parts = input === undefined ? [] : typeof input === 'string' ? input.split(',') : input.flatMap((value) => value.split(','));
  for (const raw of parts) {
    const value = raw.trim();
    if (value.startsWith('!')) {
      if (value.length > 1) filter.exclude.push(value.slice(1).trim());
    } else if (value) filter.include.push(value);
  }
  return filter;
}

export const isEmptyFilter = (filter: ValueFilter): boolean => filter.include.length === 0 && filter.exclude.length === 0;

/** Exact values as `= ANY`, wildcard values as LIKE. */
function matchAny(expr: string, values: readonly string[], params: Params): string {
  const exact = values.filter((value) => !value.includes('*'));
  const patterns = values.filter((value) => value.includes('*'));
  const parts: string[] = [];
  if (exact.length === 1) parts.push(`${expr} = ${params.add(exact[0])}`);
  else if (exact.length > 1) parts.push(`${expr} = ANY(${params.add(exact, 'text[]')})`);
  for (const pattern of patterns) parts.push(`${expr} LIKE ${params.add(likePattern(pattern))}`);
  return parts.length === 1 ? (parts[0] ?? 'false') : `(${parts.join(' OR ')})`;
}

/** SQL conditions of a value filter on an expression; an excluded value also keeps rows where it is NULL. */
export function filterConditions(expr: string, filter: ValueFilter, params: Params): string[] {
  const conditions: string[] = [];
  if (filter.include.length > 0) conditions.push(matchAny(expr, filter.include, params));
  if (filter.exclude.length > 0) conditions.push(`NOT coalesce(${matchAny(expr, filter.exclude, params)}, false)`);
  return conditions;
}

/**
 * Conditions on a jsonb map column (tags, labels) from `{key: value}`: each value is a value filter. A
 * single exact value is a containment (`@>`, served by the column's GIN index).
 */
export function mapConditions(column: string, map: Readonly<Record<string, ValueFilter>>, params: Params): string[] {
  const conditions: string[] = [];
  for (const [key, filter] of Object.entries(map)) {
    const only = filter.include.length === 1 ? filter.include[0] : undefined;
    if (only !== undefined && !only.includes('*')) {
      conditions.push(`${column} @> ${params.add(JSON.stringify({ [key]: only }), 'jsonb')}`);
      if (filter.exclude.length > 0) conditions.push(...filterConditions(`${column} ->> ${params.add(key)}`, { include: [], exclude: filter.exclude }, params));
    } else {
      conditions.push(...filterConditions(`${column} ->> ${params.add(key)}`, filter, params));
    }
  }
  return conditions;
}

/**
 * A Kubernetes-style selector, `key=value,key!=value,key,!key` (`==` also means equals): values of one
 * key are ORed, keys ANDed. Bare `key` needs the key, `!key` its absence.
 */
export function selectorConditions(column: string, selector: string, params: Params): string[] {
  const conditions: string[] = [];
  const byKey = new Map<string, ValueFilter>();
  for (const raw of selector.split(',')) {
    const term = raw.trim();
    if (!term) continue;
    const match = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!match) {
      const negate = term.startsWith('!');
      const key = negate ? term.slice(1).trim() : term;
      if (key) conditions.push(`${negate ? 'NOT ' : ''}(${column} ? ${params.add(key)})`);
      continue;
    }
    const [, key = '', operator, value = ''] = match;
    const filter = byKey.get(key) ?? { include: [], exclude: [] };
    (operator === '!=' ? filter.exclude : filter.include).push(value.trim());
    byKey.set(key, filter);
  }
  return [...conditions, ...mapConditions(column, Object.fromEntries(byKey), params)];
}
