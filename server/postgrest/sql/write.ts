import { PgrstError, columnNotFound, invalidBody } from '../errors';
import type { Actor, RelationDef } from '../registry';
import type { ColumnInfo, RelationInfo } from '../schema';
import { ident, type Params } from './expr';

/**
 * INSERT, UPDATE and DELETE of a registered relation. Bodies are bound as one jsonb parameter and
 * turned into typed rows by jsonb_to_recordset with the introspected column types, so PostgreSQL does
 * every conversion (and reports a bad value as 22P02, not as a server error).
 */
export type JsonRow = Record<string, unknown>;

export function isJsonRow(value: unknown): value is JsonRow {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Defaults = RelationDef['insertDefaults'];

/** Applies server-set values (created_by from the actor, …); they override what the client sent. */
function applyDefaults(rows: JsonRow[], defaults: Defaults, actor: Actor | undefined): string[] {
  const forced: string[] = [];
  for (const [column, hook] of Object.entries(defaults ?? {})) {
    const value = hook(actor);
    if (value === undefined) continue;
    forced.push(column);
    for (const row of rows) row[column] = value;
  }
  return forced;
}

function writableColumn(info: RelationInfo, allowed: readonly string[] | undefined, name: string, method: string): ColumnInfo {
  const column = info.columns.get(name);
  if (!column) throw columnNotFound(info.def.name, name);
  if (!(allowed ?? []).includes(name)) {
    throw new PgrstError(403, '42501', `permission denied to ${method} column ${name} of ${info.def.name}`);
  }
  return column;
}

function serverColumn(info: RelationInfo, name: string): ColumnInfo {
  const column = info.columns.get(name);
  if (!column) throw new Error(`/api/db registry: ${info.def.name} sets ${name} on write but does not list it as readable`);
  return column;
}

function recordDefinition(columns: ColumnInfo[]): string {
  return columns.map((column) => `${ident(column.name)} ${column.type}`).join(', ');
}

/** A cell bound on its own (missing=default path): json columns get JSON text, arrays stay arrays. */
export function cellValue(value: unknown, column: { type: string }): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'json' || column.type === 'jsonb') return JSON.stringify(value);
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export interface InsertOptions {
  rows: JsonRow[];
  /** `columns=`; otherwise the keys of the first row, which every row must share. */
  columns: string[] | undefined;
  missingDefault: boolean;
  conflict: { target: string[]; action: 'merge' | 'ignore' } | undefined;
  actor: Actor | undefined;
}

export function insertSql(info: RelationInfo, options: InsertOptions, params: Params): string {
  const { rows } = options;
  let names = options.columns;
  if (!names) {
    const first = Object.keys(rows[0] ?? {}).sort();
    for (const row of rows) {
      const keys = Object.keys(row).sort();
      if (keys.length !== first.length || keys.some((key, i) => key !== first[i])) throw invalidBody('All object keys must match');
    }
    names = first;
  }
  const columns = names.map((name) => writableColumn(info, info.def.insertable, name, 'insert'));
  const forced = applyDefaults(rows, info.def.insertDefaults, options.actor);
  for (const name of forced) if (!names.includes(name)) columns.push(serverColumn(info, name));
  const target = `${ident(info.source)} AS _0`;
  if (columns.length === 0) {
    if (rows.length !== 1) throw invalidBody('A bulk insert needs at least one column');
    return `INSERT INTO ${target} DEFAULT VALUES`;
  }
  const list = columns.map((column) => ident(column.name)).join(', ');
  let source: string;
  if (options.missingDefault) {
    if (rows.length * columns.length > 30_000) throw invalidBody('Too many values for a missing=default insert; send fewer rows per request');
    const tuples = rows.map((row) => `(${columns.map((column) => (Object.hasOwn(row, column.name) ? params.add(cellValue(row[column.name], column), column.type) : 'DEFAULT')).join(', ')})`);
    source = `VALUES ${tuples.join(', ')}`;
  } else {
    const select = columns.map((column) => `_v.${ident(column.name)}`).join(', ');
    source = `SELECT ${select} FROM jsonb_to_recordset(${params.add(JSON.stringify(rows), 'jsonb')}) AS _v(${recordDefinition(columns)})`;
  }
  let conflict = '';
  if (options.conflict) {
    const keys = [...options.conflict.target, ...(info.def.keysPerOrganization ? ['organization_id'] : [])].map((name) => ident(name)).join(', ');
    const updates = columns.filter((column) => !options.conflict?.target.includes(column.name)).map((column) => `${ident(column.name)} = EXCLUDED.${ident(column.name)}`);
    conflict = options.conflict.action === 'ignore' || updates.length === 0 ? ` ON CONFLICT (${keys}) DO NOTHING` : ` ON CONFLICT (${keys}) DO UPDATE SET ${updates.join(', ')}`;
  }
  return `INSERT INTO ${target} (${list}) ${source}${conflict}`;
}

/** `on_conflict=` must name the primary key or a declared conflict target (a unique index). */
export function conflictTarget(def: RelationDef, requested: string[] | undefined): string[] {
  const allowed = [def.primaryKey ?? [], ...(def.conflictTargets ?? [])].filter((set) => set.length > 0);
  const wanted = requested ?? [...(def.primaryKey ?? [])];
  const same = (set: readonly string[]) => set.length === wanted.length && set.every((name) => wanted.includes(name));
  if (wanted.length === 0 || !allowed.some(same)) {
    throw new PgrstError(400, '42P10', 'there is no unique or exclusion constraint matching the ON CONFLICT specification', null, `on_conflict may name: ${allowed.map((set) => set.join(',')).join(' | ') || 'nothing (no key declared)'}`);
  }
  return wanted;
}

export function updateSql(info: RelationInfo, body: JsonRow, where: string[], actor: Actor | undefined, params: Params): string | undefined {
  const columns = Object.keys(body).map((name) => writableColumn(info, info.def.updatable, name, 'update'));
  const row = { ...body };
  const forced = applyDefaults([row], info.def.updateDefaults, actor);
  for (const name of forced) if (!Object.hasOwn(body, name)) columns.push(serverColumn(info, name));
  if (columns.length === 0) return undefined;
  const sets = columns.map((column) => `${ident(column.name)} = _v.${ident(column.name)}`).join(', ');
  return `UPDATE ${ident(info.source)} AS _0 SET ${sets} FROM jsonb_to_record(${params.add(JSON.stringify(row), 'jsonb')}) AS _v(${recordDefinition(columns)}) WHERE ${where.join(' AND ')}`;
}

/** DELETE, or for soft-deleted relations `SET deleted_at = now()` on rows not yet deleted. */
export function deleteSql(info: RelationInfo, where: string[]): string {
  // Already deleted rows keep their deletion time, even when the filters name deleted_at.
  if (info.def.softDelete) return `UPDATE ${ident(info.source)} AS _0 SET "deleted_at" = now() WHERE ${[...where, '_0."deleted_at" IS NULL'].join(' AND ')}`;
  return `DELETE FROM ${ident(info.source)} AS _0 WHERE ${where.join(' AND ')}`;
}
