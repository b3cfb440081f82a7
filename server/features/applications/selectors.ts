import type { Queryable } from '../../platform/jobs/db';
import { likePattern, parseSearch } from '../../platform/search';
import { filterConditions, Params, selectorConditions, valueFilter } from '../catalog';
import type { AppSelector } from './spec';

/** A config item of an application, as the report shows it. */
export interface AppConfig {
  id: string;
  name: string | null;
  type: string;
  namespace: string | null;
  health: string | null;
  status: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  deleted_at: string | null;
  updated_at: string;
}

const NIL_AGENT = '00000000-0000-0000-0000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** At most this many configs per selector (upstream's default page of a selector is smaller still). */
export const MAX_PER_SELECTOR = 1000;

/** Columns the search syntax (`type=AWS::* account=12345 name="SAP-ERP"`) names; other keys are tags or labels. */
const FIELDS: Record<string, string> = {
  name: 'c.name', type: 'c.type', namespace: 'c.namespace', health: 'c.health', status: 'c.status', description: 'c.description',
  agent: 'c.agent_id::text', canary: 'c.name', endpoint: 'c.name', severity: 'c.status', owner: 'c.name',
};

/**
 * Mission Control's ResourceSelector over config_items as bound SQL: id, name (with `*`), namespace, agent,
 * types, statuses, health (comma list, `!` excludes), labelSelector, tagSelector, search (key=value terms and
 * words in the name), includeDeleted and limit. Values never become SQL text.
 */
export function selectorSql(selector: AppSelector): { text: string; values: unknown[] } {
  const params = new Params();
  const where: string[] = [];
  if (!selector.includeDeleted) where.push('c.deleted_at IS NULL');
  if (selector.id) where.push(UUID.test(selector.id) ? `c.id = ${params.add(selector.id, 'uuid')}` : `${params.add(selector.id)} = ANY(c.external_id)`);
  if (selector.name) where.push(selector.name.includes('*') ? `c.name LIKE ${params.add(likePattern(selector.name))}` : `c.name = ${params.add(selector.name)}`);
  if (selector.namespace) where.push(...filterConditions('c.namespace', valueFilter(selector.namespace), params));
  const types = [...(selector.type ? [selector.type] : []), ...(selector.types ?? [])];
  if (types.length > 0) where.push(...filterConditions('c.type', valueFilter(types), params));
  if (selector.statuses?.length) where.push(...filterConditions('c.status', valueFilter(selector.statuses), params));
  if (selector.health) where.push(...filterConditions('c.health', valueFilter(selector.health), params));
  if (selector.labelSelector) where.push(...selectorConditions('c.labels', selector.labelSelector, params));
  if (selector.tagSelector) where.push(...selectorConditions('c.tags', selector.tagSelector, params));
  if (selector.agent) {
    const agent = selector.agent.trim();
    if (agent === 'local') where.push(`c.agent_id = ${params.add(NIL_AGENT, 'uuid')}`);
    else if (UUID.test(agent)) where.push(`c.agent_id = ${params.add(agent, 'uuid')}`);
    else if (agent !== 'all') where.push(`c.agent_id IN (SELECT a.id FROM agents a WHERE a.name = ${params.add(agent)} AND a.deleted_at IS NULL)`);
  }
  const search = parseSearch(selector.search);
  for (const term of search.terms) {
    const key = term.key ?? term.field;
    const column = term.field === 'label' ? undefined : FIELDS[term.field];
    const keyParam = column ? '' : params.add(key);
    const target = column ?? `coalesce(c.tags ->> ${keyParam}, c.labels ->> ${keyParam})`;
    const any = term.values.map((value) => `${target} ILIKE ${params.add(likePattern(value))}`).join(' OR ');
    where.push(term.negate ? `NOT coalesce(${any}, false)` : `(${any})`);
  }
  for (const word of search.words) where.push(`c.name ILIKE ${params.add(`%${likePattern(word)}%`)}`);
  const limit = Math.min(selector.limit ?? MAX_PER_SELECTOR, MAX_PER_SELECTOR);
  return {
    text: `SELECT c.id, c.name, c.type, c.namespace, c.health, c.status, c.labels, c.tags, c.deleted_at, c.updated_at
           FROM config_items c ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY c.name, c.id LIMIT ${params.add(limit, 'integer')}`,
    values: params.values,
  };
}

/** The configs the selectors pick, each once, in the order found. */
export async function selectConfigs(db: Queryable, selectors: readonly AppSelector[]): Promise<AppConfig[]> {
  const seen = new Map<string, AppConfig>();
  for (const selector of selectors) {
    const statement = selectorSql(selector);
    for (const row of (await db.query<AppConfig>(statement.text, statement.values)).rows) if (!seen.has(row.id)) seen.set(row.id, row);
  }
  return [...seen.values()];
}
