import type pg from 'pg';
import { likePattern, parseSearch, type SearchTerm } from '../../../platform/search';
import type { SearchBody, Selector } from './schema';
import { filterConditions, Params, selectorConditions } from './sql';

/**
 * POST /api/resources/search (spec §7 Resource search): the resource pickers' lookups. Each kind takes a
 * list of selectors; a kind's answer is the union of its selectors' matches (each up to its own limit),
 * exact names first, then names that start with the search, then the rest by name.
 *
 * Checks, components, configs and connections are searched (connections by name, namespace, type and
 * labels; never their URL or credentials), playbooks by name, title, description and category (their type).
 */

export interface FoundResource {
  id: string;
  name: string | null;
  icon?: string | null;
  type: string;
  tags: Record<string, string>;
  [extra: string]: unknown;
}

export interface SearchAnswer {
  checks: FoundResource[];
  components: FoundResource[];
  configs: FoundResource[];
  connections: FoundResource[];
  playbooks: FoundResource[];
}

const NIL_AGENT = '00000000-0000-0000-0000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How one kind's table is searched: its columns for the fields of the search syntax. */
interface KindTable {
  from: string;
  live: string[];
  select: string;
  name: string;
  type: string;
  tags: string;
  agent: string;
  /** Columns plain words are looked for in. */
  words: string[];
  /** Columns of the search syntax's fields; other keys are tag keys. */
  fields: Partial<Record<SearchTerm['field'], string>>;
}

const CONFIGS: KindTable = {
  from: 'config_items r',
  live: ['r.deleted_at IS NULL'],
  select: 'r.id, r.name, r.type, r.config_class, r.health, r.status, r.tags, r.agent_id',
  name: 'r.name',
  type: 'r.type',
  tags: 'r.tags',
  agent: 'r.agent_id',
  words: ['r.name'],
  fields: { name: 'r.name', type: 'r.type', namespace: 'r.namespace', health: 'r.health', status: 'r.status', description: 'r.description', agent: 'r.agent_id::text' },
};

const CHECKS: KindTable = {
  from: 'checks r JOIN canaries cn ON cn.id = r.canary_id',
  live: ['r.deleted_at IS NULL', 'cn.deleted_at IS NULL'],
  select: 'r.id, r.name, r.icon, r.type, r.labels AS tags, r.status, r.namespace, r.agent_id',
  name: 'r.name',
  type: 'r.type',
  tags: 'r.labels',
  agent: 'r.agent_id',
  words: ['r.name', 'r.description', 'r.endpoint'],
  fields: {
    name: 'r.name', type: 'r.type', namespace: 'r.namespace', canary: 'cn.name', health: 'r.status', status: 'r.status', description: 'r.description',
    endpoint: 'r.endpoint', agent: 'r.agent_id::text', severity: 'r.severity', owner: 'r.owner',
  },
};

const COMPONENTS: KindTable = {
  from: 'components r',
  live: ['r.deleted_at IS NULL'],
  select: 'r.id, r.name, r.icon, r.type, r.labels AS tags, r.health, r.status, r.topology_id, r.agent_id',
  name: 'r.name',
  type: 'r.type',
  tags: 'r.labels',
  agent: 'r.agent_id',
  words: ['r.name', 'r.text'],
  fields: { name: 'r.name', type: 'r.type', health: 'r.health', status: 'r.status', description: 'r.description', owner: 'r.owner', agent: 'r.agent_id::text' },
};

const CONNECTIONS: KindTable = {
  from: 'connections r',
  live: ['r.deleted_at IS NULL'],
  select: 'r.id, r.name, r.type AS icon, r.type, r.labels AS tags, r.namespace, r.agent_id',
  name: 'r.name',
  type: 'r.type',
  tags: 'r.labels',
  agent: 'r.agent_id',
  words: ['r.name'],
  fields: { name: 'r.name', type: 'r.type', namespace: 'r.namespace', agent: 'r.agent_id::text' },
};

function selectorStatement(table: KindTable, selector: Selector): { text: string; values: unknown[] } {
  const params = new Params();
  const where = [...table.live];
  if (selector.id) where.push(`r.id = ${params.add(selector.id, 'uuid')}`);
  if (selector.name) where.push(selector.name.includes('*') ? `${table.name} LIKE ${params.add(likePattern(selector.name))}` : `${table.name} = ${params.add(selector.name)}`);
  if (selector.types) where.push(...filterConditions(table.type, selector.types, params));
  if (selector.tag_selector) where.push(...selectorConditions(table.tags, selector.tag_selector, params));
  if (selector.agent) {
    const agent = selector.agent.trim();
    if (agent === 'local') where.push(`${table.agent} = ${params.add(NIL_AGENT, 'uuid')}`);
    else if (UUID.test(agent)) where.push(`${table.agent} = ${params.add(agent, 'uuid')}`);
    else where.push(`${table.agent} IN (SELECT a.id FROM agents a WHERE a.name = ${params.add(agent)} AND a.deleted_at IS NULL)`);
  }
  const search = parseSearch(selector.search);
  for (const term of search.terms) {
    // Keys that are not fields of this kind are tag (label) keys.
    const column = term.field === 'label' ? undefined : table.fields[term.field];
    const target = column ?? `${table.tags} ->> ${params.add(term.key ?? term.field)}`;
    const any = term.values.map((value) => `${target} ILIKE ${params.add(likePattern(value))}`).join(' OR ');
    where.push(term.negate ? `NOT coalesce(${any}, false)` : `(${any})`);
  }
  const order = [table.name, 'r.id'];
  const text = search.words.join(' ');
  for (const word of search.words) {
    const pattern = params.add(`%${likePattern(word)}%`);
    where.push(`(${table.words.map((column) => `${column} ILIKE ${pattern}`).join(' OR ')})`);
  }
  if (text) {
    const exact = params.add(text);
    const prefix = params.add(`${likePattern(text)}%`);
    order.unshift(`CASE WHEN lower(${table.name}) = lower(${exact}) THEN 0 WHEN ${table.name} ILIKE ${prefix} THEN 1 ELSE 2 END`);
  }
  return {
    text: `SELECT ${table.select} FROM ${table.from} WHERE ${where.join(' AND ')} ORDER BY ${order.join(', ')} LIMIT ${params.add(selector.limit, 'integer')}`,
    values: params.values,
  };
}

async function searchKind(pool: pg.Pool, table: KindTable, selectors: readonly Selector[] | undefined): Promise<FoundResource[]> {
  if (!selectors || selectors.length === 0) return [];
  const seen = new Set<string>();
  const found: FoundResource[] = [];
  // One selector after another (a picker sends one or two): a request holds at most one connection per kind.
  for (const selector of selectors) {
    const statement = selectorStatement(table, selector);
    for (const row of (await pool.query<FoundResource>(statement.text, statement.values)).rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      found.push(row);
    }
  }
  return found;
}

const PLAYBOOKS: KindTable = {
  from: 'playbooks r',
  live: ['r.deleted_at IS NULL'],
  select: "r.id, r.name, r.icon, r.category AS type, r.labels AS tags, r.title, r.namespace, r.description",
  name: 'r.name',
  type: 'r.category',
  tags: 'r.labels',
  // Playbooks run on this console: they are the local agent's.
  agent: `'${NIL_AGENT}'::uuid`,
  words: ['r.name', 'r.title', 'r.description'],
  fields: { name: 'r.name', type: 'r.category', namespace: 'r.namespace', description: 'r.description' },
};

export async function searchResources(pool: pg.Pool, body: SearchBody): Promise<SearchAnswer> {
  const [checks, components, configs, connections, playbooks] = await Promise.all([
    searchKind(pool, CHECKS, body.checks),
    searchKind(pool, COMPONENTS, body.components),
    searchKind(pool, CONFIGS, body.configs),
    searchKind(pool, CONNECTIONS, body.connections),
    searchKind(pool, PLAYBOOKS, body.playbooks),
  ]);
  return { checks, components, configs, connections, playbooks };
}
