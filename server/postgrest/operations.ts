import type pg from 'pg';
import type { ParsedQuery } from './ast';
import { PgrstError, invalidBody, singularityError } from './errors';
import { combineWindow, contentRange, parseRangeHeader, rangeStatus, type MediaChoice, type Preferences, type Window } from './headers';
import type { Action } from '../../common/rbac';
import type { AccessTarget } from '../platform/auth/types';
import type { Actor, RbacObject } from './registry';
import type { FunctionInfo, RelationInfo, Schema } from './schema';
import { ident, Params, type Source } from './sql/expr';
import { ReadPlanner, relationSource } from './sql/read';
import { mutationStatement, readStatement, scalarFunctionStatement, type BodyShape, type ResultRow, type Statement } from './sql/statements';
import { cellValue, conflictTarget, deleteSql, insertSql, isJsonRow, updateSql, type JsonRow } from './sql/write';

/** An (RBAC object, action) pair a request needs (spec §6). */
export interface AccessNeed {
  object: RbacObject;
  action: Action;
  /** The one resource the relation's rows belong to, when it has one (RelationDef.accessTarget). */
  target?: AccessTarget;
  /** The relation's rows are filtered per resource of this kind (RelationDef.rowScope). */
  scoped?: AccessTarget['kind'];
}

/** Everything an operation needs from the HTTP request, already parsed. */
export interface DbRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  /** What the caller must be allowed: the relation or function itself, and read on every embed. */
  access: AccessNeed[];
  query: ParsedQuery;
  prefs: Preferences;
  media: MediaChoice;
  range: { header: string | string[] | undefined; unit: string | string[] | undefined };
  body: unknown;
  actor: Actor | undefined;
  /** For a row-scoped relation (RelationDef.rowScope): the ids of the rows the caller may read; undefined: all. */
  rowIds?: readonly string[];
  /** For a relation with RelationDef.rowObjects: the column values whose rows the caller may not read. */
  hiddenValues?: readonly string[];
}

/** What the handler sends back. */
export interface Outcome {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

interface RunOptions {
  readOnly?: boolean;
  /** Roll the transaction back unless the result passes (singular writes: exactly one row). */
  keep?: (row: ResultRow) => boolean;
  /** Who writes: triggers read it as `watchkeeper.actor` (the incident timeline, migration 0012). */
  actor?: Actor;
  /** Runs after the statement in its transaction, unless `keep` rolls it back. */
  after?: (client: pg.PoolClient, row: ResultRow) => Promise<void>;
}

/** The longest a single /api/db statement may run by default (57014 beyond, answered 400 with a hint). */
export const STATEMENT_TIMEOUT_MS = 30_000;

export class Operations {
  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: Schema,
    private readonly statementTimeoutMs = STATEMENT_TIMEOUT_MS,
  ) {}

  /**
   * Every statement runs in its own transaction with a time limit (a client can ask for expensive
   * nested embeds), read-only for GET as PostgREST does, so a read can never write.
   */
  private async run(statement: Statement, options: RunOptions = {}): Promise<ResultRow> {
    const client = await this.pool.connect();
    try {
      await client.query(`${options.readOnly ? 'BEGIN READ ONLY' : 'BEGIN'}; SET LOCAL statement_timeout = ${Math.trunc(this.statementTimeoutMs)}`);
      if (options.actor && !options.readOnly) await client.query("SELECT set_config('watchkeeper.actor', $1, true)", [options.actor.id]);
      const { rows } = await client.query<ResultRow>(statement.text, statement.values);
      const row = firstRow(rows);
      const kept = !options.keep || options.keep(row);
      if (kept && options.after) await options.after(client, row);
      await client.query(kept ? 'COMMIT' : 'ROLLBACK');
      return row;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async read(info: RelationInfo, req: DbRequest): Promise<Outcome> {
    const planner = new ReadPlanner(this.schema, req.query, new Params(), req.media.stripNulls);
    const source = relationSource(info.def.name, info.source, info.columns);
    return this.readSource(planner, source, info.def, req, req.media.singular ? 'object' : 'array', { rowCount: info.def.rowCount, readOnly: true });
  }

  private async readSource(planner: ReadPlanner, source: Source, def: RelationInfo['def'] | undefined, req: DbRequest, shape: BodyShape, options: RunOptions & { rowCount?: string }): Promise<Outcome> {
    const alias = planner.nextAlias();
    const node = planner.node(source, def, alias, req.query.select, '');
    if (def?.rowScope && req.rowIds) node.where.push(`${alias}."id" = ANY(${planner.params.add(req.rowIds, 'uuid[]')})`);
    if (def?.rowObjects && req.hiddenValues && req.hiddenValues.length > 0) {
      node.where.push(`${alias}.${ident(def.rowObjects.column)} <> ALL(${planner.params.add(req.hiddenValues, 'text[]')})`);
    }
    planner.checkUnusedNodes();
    const window = combineWindow(parseRangeHeader(req.range.header, req.range.unit), node.offset, node.limit);
    const row = await this.run(readStatement(planner, source, alias, node, window, req.prefs.count, shape, options.rowCount), options);
    const rows = Number(row.page_count);
    const total = row.total === null ? undefined : Number(row.total);
    if (req.media.singular && rows !== 1) throw singularityError(rows);
    const status = req.media.singular ? 200 : rangeStatus(window.offset, rows, total);
    if (status === 416) {
      throw new PgrstError(416, 'PGRST103', 'Requested range not satisfiable', `An offset of ${window.offset} was requested, but there are only ${total ?? 0} rows.`);
    }
    return { status, headers: rangeHeaders(window, rows, total, req.prefs), body: row.body ?? (shape === 'object' ? 'null' : '[]') };
  }

  async insert(info: RelationInfo, req: DbRequest): Promise<Outcome> {
    if (!info.def.insertable?.length) throw readOnly('POST', info);
    const rows = bodyRows(req.body);
    const planner = new ReadPlanner(this.schema, req.query, new Params(), req.media.stripNulls);
    const conflict = req.prefs.resolution
      ? { target: conflictTarget(info.def, req.query.onConflict), action: req.prefs.resolution === 'merge-duplicates' ? ('merge' as const) : ('ignore' as const) }
      : undefined;
    if (rows.length === 0) return this.writeOutcome(201, req, info, { total: null, page_count: 0, body: '[]' });
    const mutation = insertSql(info, { rows, columns: req.query.columns, missingDefault: req.prefs.missingDefault, conflict, actor: req.actor }, planner.params);
    return this.mutate(planner, info, req, mutation, 201);
  }

  async update(info: RelationInfo, req: DbRequest): Promise<Outcome> {
    if (!info.def.updatable?.length) throw readOnly('PATCH', info);
    if (!isJsonRow(req.body)) throw invalidBody('PATCH needs a JSON object of the columns to change');
    const body = req.body;
    const { planner, where } = this.mutationTarget(info, req, 'UPDATE');
    const mutation = updateSql(info, body, where, req.actor, planner.params);
    if (!mutation) return this.writeOutcome(req.prefs.return === 'representation' ? 200 : 204, req, info, { total: null, page_count: 0, body: '[]' });
    return this.mutate(planner, info, req, mutation, req.prefs.return === 'representation' ? 200 : 204);
  }

  async remove(info: RelationInfo, req: DbRequest): Promise<Outcome> {
    if (!info.def.deletable) throw readOnly('DELETE', info);
    const { planner, where } = this.mutationTarget(info, req, 'DELETE');
    return this.mutate(planner, info, req, deleteSql(info, where), req.prefs.return === 'representation' ? 200 : 204);
  }

  /** PATCH and DELETE: the top-level filters (with row rules) become the statement's WHERE. */
  private mutationTarget(info: RelationInfo, req: DbRequest, verb: 'UPDATE' | 'DELETE'): { planner: ReadPlanner; where: string[] } {
    const top = req.query.nodes.get('');
    // Safety rule: a PATCH or DELETE must say which rows; PostgREST's pg-safeupdate answers the same way.
    if (!top || top.filters.length === 0) throw new PgrstError(400, '21000', `${verb} requires a WHERE clause`, null, 'Add a filter such as id=eq.<id> to the query string.');
    if (top.limit !== undefined || top.offset !== undefined || req.range.header !== undefined) {
      throw new PgrstError(400, 'PGRST100', `limit, offset and Range are not supported on ${verb === 'UPDATE' ? 'PATCH' : 'DELETE'}`, 'Select the rows with filters instead.');
    }
    const planner = new ReadPlanner(this.schema, req.query, new Params(), req.media.stripNulls);
    const source = relationSource(info.def.name, info.source, info.columns);
    // Planned once against the table (alias _0) for the WHERE; the representation reuses the same columns.
    const node = planner.node(source, info.def, planner.nextAlias(), [], '');
    // Rows that came from elsewhere (a CRD, a file) are read-only here: they match no PATCH or DELETE.
    const guard = info.def.writableWhere;
    const where = guard ? [...node.where, `_0.${ident(guard.column)} = ${planner.params.add(guard.equals, 'text')}`] : node.where;
    return { planner, where };
  }

  private async mutate(planner: ReadPlanner, info: RelationInfo, req: DbRequest, mutation: string, status: number): Promise<Outcome> {
    const source = relationSource(info.def.name, info.source, info.columns);
    const wantsBody = req.prefs.return === 'representation';
    // The select tree is planned over the affected rows (`_m _0`); filters of the top node were used in WHERE.
    const representation = new ReadPlanner(this.schema, { ...req.query, nodes: withoutTopFilters(req.query) }, planner.params, req.media.stripNulls);
    const alias = representation.nextAlias();
    const node = wantsBody ? representation.node(source, info.def, alias, req.query.select, '') : { columns: [], where: [], order: [], limit: undefined, offset: undefined };
    if (wantsBody) representation.checkUnusedNodes();
    const shape: BodyShape = !wantsBody ? 'none' : req.media.singular ? 'object' : 'array';
    const keys = req.prefs.return === 'headers-only' ? info.def.primaryKey : undefined;
    const hook = info.def.afterWrite;
    const method = req.method === 'POST' || req.method === 'PATCH' || req.method === 'DELETE' ? req.method : undefined;
    const changesOf = hook && method && info.def.primaryKey ? { table: info.source, key: info.def.primaryKey } : undefined;
    const statement = mutationStatement(planner, mutation, node, alias, shape, keys, changesOf);
    const max = req.prefs.maxAffected;
    const fits = (rows: number) => (!req.media.singular || rows === 1) && (max === undefined || rows <= max);
    const after =
      hook && method && changesOf
        ? async (client: pg.PoolClient, result: ResultRow) => {
            // A DELETE's rows are the deleted ones: they are the `old` state, and there is no `new`.
            const changes = (result.changes ?? []).map((change) => (method === 'DELETE' ? { old: change.new, new: null } : change));
            if (changes.length > 0) await hook(client, { method, changes, actor: req.actor });
          }
        : undefined;
    const row = await this.run(statement, {
      actor: req.actor,
      ...(after ? { after } : {}),
      ...(req.media.singular || max !== undefined ? { keep: (result) => fits(Number(result.page_count)) } : {}),
    });
    const affected = Number(row.page_count);
    if (req.media.singular && affected !== 1) throw singularityError(affected);
    if (max !== undefined && affected > max) {
      throw new PgrstError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${affected} rows`);
    }
    return this.writeOutcome(status, req, info, row);
  }

  private writeOutcome(status: number, req: DbRequest, info: RelationInfo, row: ResultRow): Outcome {
    const rows = Number(row.page_count);
    // PostgREST answers inserts with `*/*` (no window) and updates/deletes with the affected window.
    const range = req.method === 'POST' ? `*/${req.prefs.count ? rows : '*'}` : contentRange(0, rows, req.prefs.count ? rows : undefined);
    const headers: Record<string, string> = { 'content-range': range };
    if (req.prefs.applied.length > 0) headers['preference-applied'] = req.prefs.applied.join(', ');
    const location = locationOf(info, row.keys);
    if (location) headers.location = location;
    const wantsBody = req.prefs.return === 'representation';
    if (!wantsBody && status === 200) status = 204;
    return { status, headers, body: wantsBody ? (row.body ?? (req.media.singular ? 'null' : '[]')) : undefined };
  }

  async rpc(fn: FunctionInfo, req: DbRequest, args: Record<string, unknown>): Promise<Outcome> {
    const params = new Params();
    const bound = fn.args.filter((arg) => Object.hasOwn(args, arg.name)).map((arg) => `${ident(arg.name)} => ${params.add(cellValue(args[arg.name], arg), arg.type)}`);
    const call = `${ident(fn.def.name)}(${bound.join(', ')})`;
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    const options: RunOptions = readOnly ? { readOnly: true } : { actor: req.actor };
    if (fn.columns) {
      const planner = new ReadPlanner(this.schema, req.query, params, req.media.stripNulls);
      const source: Source = { name: fn.def.name, from: call, columns: fn.columns };
      const shape: BodyShape = !fn.returnsSet || req.media.singular ? 'object' : 'array';
      // A function returning a registered table's rows embeds and follows row rules like that table.
      return this.readSource(planner, source, fn.relation?.def, req, shape, options);
    }
    const top = req.query.nodes.get('');
    if ((top && (top.filters.length > 0 || top.order)) || req.query.nodes.size > 1) {
      throw new PgrstError(400, 'PGRST100', `filters and order need a function returning rows; ${fn.def.name} returns a scalar`);
    }
    const row = await this.run(scalarFunctionStatement(call, fn.returnsSet, params), options);
    return { status: 200, headers: {}, body: row.body ?? 'null' };
  }
}

function firstRow(rows: ResultRow[]): ResultRow {
  return rows[0] ?? { total: null, page_count: 0, body: null };
}

function readOnly(method: string, info: RelationInfo): PgrstError {
  return new PgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`, `${info.def.name} is read-only through /api/db`);
}

function bodyRows(body: unknown): JsonRow[] {
  if (Array.isArray(body)) {
    if (!body.every(isJsonRow)) throw invalidBody('All items of the JSON array must be objects');
    return body;
  }
  if (isJsonRow(body)) return [body];
  throw invalidBody('Empty or invalid json');
}

function withoutTopFilters(query: ParsedQuery): ParsedQuery['nodes'] {
  const nodes = new Map(query.nodes);
  nodes.set('', { filters: [] });
  return nodes;
}

function rangeHeaders(window: Window, rows: number, total: number | undefined, prefs: Preferences): Record<string, string> {
  const headers: Record<string, string> = { 'content-range': contentRange(window.offset, rows, total) };
  if (prefs.applied.length > 0) headers['preference-applied'] = prefs.applied.join(', ');
  return headers;
}

/** `Location: /properties?name=eq.x` for a single inserted row (return=headers-only). */
function locationOf(info: RelationInfo, keys: unknown): string | undefined {
  const pk = info.def.primaryKey;
  if (!pk || !Array.isArray(keys) || keys.length !== 1) return undefined;
  const values: unknown = keys[0];
  if (!Array.isArray(values)) return undefined;
  const query = pk.map((column, i) => `${encodeURIComponent(column)}=eq.${encodeURIComponent(String(values[i]))}`).join('&');
  return `/${info.def.name}?${query}`;
}
