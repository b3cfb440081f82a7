import type pg from 'pg';
import { likePattern, parseSearch } from '../../../platform/search';
import { filterConditions, Params, selectorConditions, valueFilter } from '../../catalog';
import { isRecord } from '../../../platform/errors';
import { send } from '../../../platform/peers/http-client';
import { safeMessage } from '../../../platform/peers/credentials';
import { plainValue, queryMysql, queryPostgres, sqlDriverOf } from '../../../platform/peers/sql';
import { secretStore } from '../../../platform/secrets';
import { resolveConnection, resolveEnvVar } from '../../../platform/secrets/resolve';
import type { ResolvedConnection } from '../../../platform/connections/types';
import { quoteIdent, viewTableName } from './table';

/**
 * One named query of a view, run: its rows as plain objects. configs and changes read this console's
 * catalog through a resource selector; sql, http and prometheus reach a peer (through a connection);
 * viewTableSelector reads other views' tables.
 */

export type Row = Record<string, unknown>;

export class QueryFailed extends Error {}

export interface QueryContext {
  pool: pg.Pool;
  /** The view's namespace: connection://name resolves there. */
  namespace: string;
  signal: AbortSignal;
  /** Whether `config` (the scraped document) is needed: it is the largest field of an item. */
  wantsConfig: boolean;
}

const NIL_AGENT = '00000000-0000-0000-0000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PEER_TIMEOUT_MS = 60_000;

const CONFIG_FIELDS: Record<string, string> = {
  name: 'r.name', type: 'r.type', namespace: 'r.namespace', health: 'r.health', status: 'r.status', description: 'r.description',
  config_class: 'r.config_class', source: 'r.source', agent: 'r.agent_id::text', id: 'r.id::text', created_at: 'r.created_at::text', updated_at: 'r.updated_at::text',
};

function list(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' && value.trim() !== '') return value.split(',');
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** duty's ResourceSelector as SQL conditions over `r` (config_items); unknown fields ignored. */
export function configConditions(selector: Record<string, unknown>, params: Params): string[] {
  const where: string[] = [];
  if (selector.includeDeleted !== true) where.push('r.deleted_at IS NULL');
  const id = text(selector.id);
  if (id) where.push(UUID.test(id) ? `r.id = ${params.add(id, 'uuid')}` : 'false');
  const name = text(selector.name);
  if (name) where.push(...filterConditions('r.name', valueFilter(name), params));
  const namespace = text(selector.namespace);
  if (namespace) where.push(...filterConditions('r.namespace', valueFilter(namespace), params));
  const types = list(selector.types) ?? list(selector.type);
  if (types) where.push(...filterConditions('r.type', valueFilter(types), params));
  const statuses = list(selector.statuses);
  if (statuses) where.push(...filterConditions('r.status', valueFilter(statuses), params));
  const health = list(selector.health);
  if (health) where.push(...filterConditions('r.health', valueFilter(health), params));
  const tagSelector = text(selector.tagSelector);
  if (tagSelector) where.push(...selectorConditions('r.tags', tagSelector, params));
  const labelSelector = text(selector.labelSelector);
  if (labelSelector) where.push(...selectorConditions('r.labels', labelSelector, params));
  const fieldSelector = text(selector.fieldSelector);
  if (fieldSelector) {
    for (const term of fieldSelector.split(',')) {
      const match = /^\s*([A-Za-z_]+)\s*(!=|==|=)\s*(.*)$/.exec(term);
      const column = match ? CONFIG_FIELDS[match[1] ?? ''] : undefined;
      if (!match || !column) throw new QueryFailed(`fieldSelector: ${JSON.stringify(term.trim())} is not field=value over ${Object.keys(CONFIG_FIELDS).join(', ')}`);
      const filter = valueFilter(match[2] === '!=' ? `!${match[3] ?? ''}` : (match[3] ?? ''));
      where.push(...filterConditions(column, filter, params));
    }
  }
  const agent = text(selector.agent);
  if (agent && agent !== 'all') {
    if (agent === 'local') where.push(`r.agent_id = ${params.add(NIL_AGENT, 'uuid')}`);
    else if (UUID.test(agent)) where.push(`r.agent_id = ${params.add(agent, 'uuid')}`);
    else where.push(`r.agent_id IN (SELECT a.id FROM agents a WHERE a.name = ${params.add(agent)} AND a.deleted_at IS NULL)`);
  }
  const search = parseSearch(text(selector.search)?.replace(/(^|\s)@order=\S*/g, ' '));
  for (const term of search.terms) {
    const column = term.field === 'label' ? undefined : CONFIG_FIELDS[term.field];
    const target = column ?? `r.tags ->> ${params.add(term.key ?? term.field)}`;
    const any = term.values.map((value) => `${target} ILIKE ${params.add(likePattern(value))}`).join(' OR ');
    where.push(term.negate ? `NOT coalesce(${any}, false)` : `(${any})`);
  }
  for (const word of search.words) where.push(`r.name ILIKE ${params.add(`%${likePattern(word)}%`)}`);
  return where;
}

function limitOf(selector: Record<string, unknown>, max: unknown): string {
  const limit = typeof selector.limit === 'number' && selector.limit > 0 ? selector.limit : typeof max === 'number' && max > 0 ? max : undefined;
  return limit ? ` LIMIT ${Math.floor(limit)}` : '';
}

function orderOf(selector: Record<string, unknown>): string {
  const match = /@order=(-?)([A-Za-z_]+)/.exec(String(selector.search ?? ''));
  const column = match ? CONFIG_FIELDS[match[2] ?? ''] : undefined;
  return column ? `${column}${match?.[1] ? ' DESC' : ''}, r.id` : 'r.name, r.id';
}

const CONFIG_COLUMNS =
  'r.id, r.name, r.namespace, r.type, r.config_class, r.status, r.health, r.ready, r.description, r.source, r.labels, r.tags, r.properties, r.agent_id, r.parent_id, r.path, r.external_id, r.cost_per_minute, r.cost_total_1d, r.cost_total_7d, r.cost_total_30d, r.created_at, r.updated_at, r.deleted_at, r.last_scraped_time';

/**
 * Column lists as a table holds them (`asTable`): ids as text and arrays as jsonb, the types the sandbox
 * gives these values when they come through this server (strings, arrays), so merge and panel SQL and
 * mapping see the same values whether the rows were loaded from here or selected in the database.
 */
function columnList(columns: string, asTable: boolean): string {
  if (!asTable) return columns;
  return columns
    .split(', ')
    .map((column) => {
      const name = column.split(/ AS |\./).pop() ?? column;
      if (/^(r\.(id|agent_id|parent_id)|c\.(id|config_id|created_by))$/.test(column)) return `${column}::text AS ${name}`;
      if (column === 'r.external_id') return 'to_jsonb(r.external_id) AS external_id';
      return column;
    })
    .join(', ');
}

export function configsStatement(selector: Record<string, unknown>, wantsConfig: boolean, extra: string[] = [], asTable = false): { text: string; values: unknown[] } {
  const params = new Params();
  const where = [...configConditions(selector, params), ...extra];
  return {
    text: `SELECT ${columnList(CONFIG_COLUMNS, asTable)}${wantsConfig ? ', r.config' : ''} FROM config_items r WHERE ${where.length ? where.join(' AND ') : 'true'} ORDER BY ${orderOf(selector)}${limitOf(selector, undefined)}`,
    values: params.values,
  };
}

async function configs(ctx: QueryContext, selector: Record<string, unknown>): Promise<Row[]> {
  const statement = configsStatement(selector, ctx.wantsConfig);
  return (await ctx.pool.query<Row>(statement.text, statement.values)).rows;
}

const CHANGE_COLUMNS =
  'c.id, c.config_id, r.name, r.type, r.namespace AS config_namespace, c.change_type, c.severity, c.source, c.summary, c.details, c.count, c.first_observed, c.created_at, c.created_by, c.external_created_by, r.tags';

/** Changes of the items a selector selects (its fields apply to the item), newest first. */
export function changesStatement(selector: Record<string, unknown>, asTable = false): { text: string; values: unknown[] } {
  const params = new Params();
  const where = configConditions({ ...selector, includeDeleted: true }, params);
  const text =
    `SELECT ${columnList(CHANGE_COLUMNS, asTable)} ` +
    `FROM config_changes c JOIN config_items r ON r.id = c.config_id WHERE ${where.length ? where.join(' AND ') : 'true'} ORDER BY c.created_at DESC${limitOf(selector, undefined) || ' LIMIT 10000'}`;
  return { text, values: params.values };
}

async function changes(ctx: QueryContext, selector: Record<string, unknown>): Promise<Row[]> {
  const statement = changesStatement(selector);
  return (await ctx.pool.query<Row>(statement.text, statement.values)).rows;
}

/**
 * A query this console answers from its own catalog (configs, changes): its SELECT, so the rows can be
 * made into a table inside the database without passing through this server. Undefined for the others.
 */
export function localStatement(query: Record<string, unknown>, wantsConfig: boolean): { text: string; values: unknown[] } | undefined {
  if (isRecord(query.configs)) return configsStatement(query.configs, wantsConfig, [], true);
  if (isRecord(query.changes)) return changesStatement(query.changes, true);
  return undefined;
}

async function connectionOf(ctx: QueryContext, reference: unknown, where: string): Promise<ResolvedConnection | undefined> {
  const ref = text(reference);
  if (!ref) return undefined;
  return resolveConnection(secretStore(ctx.pool), ref.startsWith('connection://') ? ref : `connection://${ref}`, ctx.namespace, where);
}

async function envText(ctx: QueryContext, value: unknown, where: string): Promise<string> {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (!isRecord(value)) throw new QueryFailed(`${where}: must be a text, {value} or {valueFrom}`);
  return resolveEnvVar(secretStore(ctx.pool), ctx.namespace, value, where);
}

async function sql(ctx: QueryContext, spec: Record<string, unknown>, where: string): Promise<Row[]> {
  const reference = text(spec.connection);
  const isString = reference !== undefined && !reference.startsWith('connection://') && sqlDriverOf(reference) !== undefined;
  const connection = isString ? undefined : await connectionOf(ctx, reference, `${where}.connection`);
  const url = (await envText(ctx, spec.url, `${where}.url`)) || (isString ? reference : connection?.url) || '';
  if (!url) throw new QueryFailed(`${where}: give a connection or a url`);
  const username = (await envText(ctx, spec.username, `${where}.username`)) || connection?.username;
  const password = (await envText(ctx, spec.password, `${where}.password`)) || connection?.password;
  const named = (text(spec.type) ?? connection?.type ?? '').toLowerCase();
  const driver = named === 'mysql' || named === 'mariadb' ? 'mysql' : named === 'postgres' || named === 'postgresql' ? 'postgres' : sqlDriverOf(url);
  if (!driver) throw new QueryFailed(`${where}: the database is neither PostgreSQL nor MySQL (give type: postgres or mysql)`);
  const query = text(spec.query);
  if (!query) throw new QueryFailed(`${where}.query: is required`);
  const options = { timeoutMs: PEER_TIMEOUT_MS, signal: ctx.signal, applicationName: 'watchkeeper view' };
  try {
    const rows = driver === 'mysql' ? await queryMysql({ url, username, password }, query, options) : await queryPostgres({ url, username, password }, query, options);
    return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, plainValue(value)])));
  } catch (error) {
    throw new QueryFailed(`${where}: ${safeMessage(error, [password ?? ''])}`);
  }
}

/** `$.a.b[0]`, `$.items[*]`, `$.recipes[:10]`, `a.b`: the part of a JSON answer the rows are in. */
export function jsonPathValue(value: unknown, path: string): unknown {
  const body = path.trim().replace(/^\$\.?/, '');
  let current: unknown[] = [value];
  let spread = false;
  for (const match of body.matchAll(/([^.[\]]+)|\[(\*|-?\d*:?-?\d*)\]/g)) {
    const key = match[1];
    const index = match[2];
    const next: unknown[] = [];
    for (const item of current) {
      if (key !== undefined) {
        if (isRecord(item) && key in item) next.push(item[key]);
      } else if (Array.isArray(item)) {
        if (index === '*' || index === ':') {
          next.push(...item);
          spread = true;
        } else if (index?.includes(':')) {
          const [from, to] = index.split(':').map((part) => (part === '' ? undefined : Number(part)));
          next.push(...item.slice(from ?? 0, to ?? item.length));
          spread = true;
        } else if (index !== undefined) {
          const at = Number(index);
          const element = item[at < 0 ? item.length + at : at];
          if (element !== undefined) next.push(element);
        }
      }
    }
    current = next;
  }
  return spread ? current : current[0];
}

function rowsOfJson(value: unknown): Row[] {
  if (Array.isArray(value)) return value.map((item) => (isRecord(item) ? item : { value: item }));
  if (isRecord(value)) return [value];
  if (value === undefined || value === null) return [];
  return [{ value }];
}

async function http(ctx: QueryContext, spec: Record<string, unknown>, where: string): Promise<Row[]> {
  const connection = await connectionOf(ctx, spec.connection, `${where}.connection`);
  const base = text(spec.url) ?? connection?.url;
  if (!base) throw new QueryFailed(`${where}: give a url or a connection`);
  if (!URL.canParse(base)) throw new QueryFailed(`${where}.url: ${JSON.stringify(base)} is not a URL`);
  const url = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new QueryFailed(`${where}.url: must be http:// or https://`);
  const username = (await envText(ctx, spec.username, `${where}.username`)) || connection?.username || '';
  const password = (await envText(ctx, spec.password, `${where}.password`)) || connection?.password || '';
  const bearer = (await envText(ctx, spec.bearer, `${where}.bearer`)) || connection?.properties.bearer || '';
  const headers = [{ name: 'accept', value: 'application/json' }];
  for (const [i, header] of (Array.isArray(spec.headers) ? spec.headers : []).entries()) {
    if (isRecord(header) && typeof header.name === 'string') headers.push({ name: header.name, value: await envText(ctx, header.valueFrom ? header : header.value, `${where}.headers[${i}]`) });
  }
  const body = typeof spec.body === 'string' ? spec.body : undefined;
  if (body !== undefined && !headers.some((header) => header.name.toLowerCase() === 'content-type')) headers.push({ name: 'content-type', value: 'application/json' });
  let response;
  try {
    response = await send({
      url,
      method: (text(spec.method) ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase(),
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(username || password ? { basicAuth: { username, password } } : {}),
      ...(bearer ? { bearerToken: bearer } : {}),
      tls: { rejectUnauthorized: !(connection?.insecureTLS ?? false), handshakeTimeoutMs: 10_000 },
      maxRedirects: 3,
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(PEER_TIMEOUT_MS)]),
    });
  } catch (error) {
    throw new QueryFailed(`${where}: ${url.origin}${url.pathname}: ${safeMessage(error, [password, bearer])}`);
  }
  if (response.status >= 400) throw new QueryFailed(`${where}: ${url.origin}${url.pathname} answered HTTP ${response.status}`);
  let json: unknown;
  try {
    json = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new QueryFailed(`${where}: ${url.origin}${url.pathname} did not answer JSON`);
  }
  const path = text(spec.jsonPath) ?? text(spec.jsonpath);
  return rowsOfJson(path ? jsonPathValue(json, path) : json);
}

async function prometheus(ctx: QueryContext, spec: Record<string, unknown>, where: string): Promise<Row[]> {
  const connection = await connectionOf(ctx, spec.connection, `${where}.connection`);
  const base = (text(spec.url) ?? connection?.url ?? '').replace(/\/+$/, '');
  if (!base) throw new QueryFailed(`${where}: give a connection or a url`);
  const query = text(spec.query);
  if (!query) throw new QueryFailed(`${where}.query: is required`);
  const target = `${base}/api/v1/query?${new URLSearchParams({ query }).toString()}`;
  const rows = await http(ctx, { url: target, username: spec.username ?? connection?.username, password: spec.password ?? connection?.password, bearer: spec.bearer ?? connection?.properties.bearer }, where).catch((error: unknown) => {
    throw error instanceof QueryFailed ? error : new QueryFailed(`${where}: ${safeMessage(error, [])}`);
  });
  const answer = rows[0];
  const data = isRecord(answer?.data) ? answer.data : undefined;
  if (!answer || answer.status !== 'success' || !data) throw new QueryFailed(`${where}: Prometheus answered ${String(answer?.errorType ?? 'no data')}: ${String(answer?.error ?? '')}`.trim());
  const result = data.result;
  const out: Row[] = [];
  const numberOf = (value: unknown) => Number(value);
  if (data.resultType === 'vector' && Array.isArray(result)) {
    for (const sample of result) if (isRecord(sample)) out.push({ ...(isRecord(sample.metric) ? sample.metric : {}), value: numberOf(Array.isArray(sample.value) ? sample.value[1] : undefined) });
  } else if (data.resultType === 'matrix' && Array.isArray(result)) {
    for (const stream of result) {
      if (!isRecord(stream) || !Array.isArray(stream.values)) continue;
      for (const pair of stream.values) if (Array.isArray(pair)) out.push({ ...(isRecord(stream.metric) ? stream.metric : {}), timestamp: Math.floor(Number(pair[0])), value: numberOf(pair[1]) });
    }
  } else if ((data.resultType === 'scalar' || data.resultType === 'string') && Array.isArray(result)) {
    out.push({ value: data.resultType === 'scalar' ? numberOf(result[1]) : result[1] });
  }
  return out;
}

/** Rows of the tables of other views (every variable set), selected by name, namespace or labels. */
async function viewTables(ctx: QueryContext, selector: Record<string, unknown>, where: string): Promise<Row[]> {
  const params = new Params();
  const conditions = ['v.deleted_at IS NULL'];
  const name = text(selector.name);
  if (name) conditions.push(...filterConditions('v.name', valueFilter(name), params));
  const namespace = text(selector.namespace);
  if (namespace) conditions.push(...filterConditions('v.namespace', valueFilter(namespace), params));
  const labels = text(selector.labelSelector);
  if (labels) conditions.push(...selectorConditions('v.labels', labels, params));
  const { rows: views } = await ctx.pool.query<{ name: string; namespace: string }>(`SELECT v.name, v.namespace FROM views v WHERE ${conditions.join(' AND ')} ORDER BY v.namespace, v.name`, params.values);
  const out: Row[] = [];
  for (const view of views) {
    const table = viewTableName(view.namespace, view.name);
    const { rows: exists } = await ctx.pool.query("SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = $1", [table]);
    if (exists.length === 0) continue;
    const { rows } = await ctx.pool.query<Row>(`SELECT * FROM ${quoteIdent(table)}`);
    // The organization a row belongs to (migration 0035) is not the view's data.
    for (const row of rows) delete row.organization_id;
    out.push(...rows);
  }
  if (views.length === 0) throw new QueryFailed(`${where}: no view matches the selector`);
  return out;
}

/** Runs one query (already templated); a failure is a QueryFailed naming `queries.<name>`. */
export async function runQuery(ctx: QueryContext, name: string, query: Record<string, unknown>): Promise<Row[]> {
  const where = `queries.${name}`;
  try {
    if (isRecord(query.configs)) return await configs(ctx, query.configs);
    if (isRecord(query.changes)) return await changes(ctx, query.changes);
    if (isRecord(query.sql)) return await sql(ctx, query.sql, `${where}.sql`);
    if (isRecord(query.http)) return await http(ctx, query.http, `${where}.http`);
    if (isRecord(query.prometheus)) return await prometheus(ctx, query.prometheus, `${where}.prometheus`);
    if (isRecord(query.viewTableSelector)) return await viewTables(ctx, query.viewTableSelector, `${where}.viewTableSelector`);
  } catch (error) {
    if (error instanceof QueryFailed) throw error;
    throw new QueryFailed(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
  throw new QueryFailed(`${where}: has no source (configs, changes, sql, http, prometheus or viewTableSelector)`);
}
