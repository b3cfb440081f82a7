import { createHash } from 'node:crypto';
import type pg from 'pg';
import { asServer } from '../../../platform/db/tenant';
import { isOneOf } from '../../../../common/guards';

/**
 * The view's own table, `view_<namespace>_<name>`: one typed column per view column, plus
 * request_fingerprint (the variable set the row belongs to) and agent_id. Readers page it through
 * /api/db; a refresh replaces the rows of one fingerprint in one transaction.
 */

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export interface EngineColumn {
  name: string;
  type: string;
  primaryKey?: boolean;
  [option: string]: unknown;
}

export const NIL_AGENT = '00000000-0000-0000-0000-000000000000';
/** Columns every view table has besides the view's own. */
export const SYSTEM_COLUMNS = ['request_fingerprint', 'agent_id'] as const;

/** `view_<namespace>_<name>`, lower-cased, characters other than [a-z0-9_] as `_`, at most 63 characters. */
export function viewTableName(namespace: string, name: string): string {
  const clean = (text: string) => text.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const full = `view_${clean(namespace || 'default')}_${clean(name)}`;
  return full.length <= 63 ? full : `${full.slice(0, 50)}_${createHash('sha256').update(full).digest('hex').slice(0, 12)}`;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The PostgreSQL type of a view column type. */
export function sqlTypeOf(type: string): string {
  switch (type) {
    case 'number':
    case 'decimal':
    case 'millicore':
    case 'bytes':
    case 'duration':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'datetime':
      return 'timestamptz';
    case 'gauge':
    case 'labels':
      return 'jsonb';
    default:
      return 'text';
  }
}

/** The view's columns that are stored (a column named like a system column is the system one). */
export function storedColumns(columns: readonly EngineColumn[]): EngineColumn[] {
  return columns.filter((column) => !isOneOf(SYSTEM_COLUMNS, column.name));
}

interface TableShape {
  columns: Array<{ name: string; type: string }>;
  primaryKey: string[];
}

function shapeOf(columns: readonly EngineColumn[]): TableShape {
  const stored = storedColumns(columns);
  return {
    columns: stored.map((column) => ({ name: column.name, type: sqlTypeOf(column.type) })),
    primaryKey: stored.filter((column) => column.primaryKey).map((column) => column.name),
  };
}

function signatureOf(shape: TableShape): string {
  return `watchkeeper view table ${createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16)}`;
}

/**
 * Creates the table, or drops and re-creates it when the view's columns changed (its rows are then gone
 * and every variable set refreshes again). The table's comment records the shape it was made for.
 * Answers whether the table was (re)created.
 */
export async function ensureTable(client: pg.PoolClient, viewId: string, table: string, columns: readonly EngineColumn[], sortColumn?: string): Promise<boolean> {
  columns = columns.map((column) => (column.name === sortColumn ? { ...column, sort: true } : column));
  const shape = { ...shapeOf(columns), indexed: columns.filter((column) => column.sort || column.filter).map((column) => column.name) };
  const signature = signatureOf(shape);
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`view-table:${table}`]);
  const { rows } = await client.query<{ comment: string | null }>(
    "SELECT obj_description(c.oid, 'pg_class') AS comment FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = $1 AND c.relkind = 'r'",
    [table],
  );
  if (rows[0] && rows[0].comment === signature) return false;
  const quoted = quoteIdent(table);
  // The table is made by this server's own user, also for an organization's view (docs/HOSTED.md).
  await asServer(client, async () => {
    if (rows[0]) await client.query(`DROP TABLE ${quoted}`);
    const definitions = shape.columns.map((column) => `${quoteIdent(column.name)} ${column.type}${shape.primaryKey.includes(column.name) ? ' NOT NULL' : ''}`);
    definitions.push('request_fingerprint text NOT NULL', `agent_id uuid NOT NULL DEFAULT '${NIL_AGENT}'`);
    const key = ['request_fingerprint', ...shape.primaryKey].map(quoteIdent).join(', ');
    definitions.push(`PRIMARY KEY (${key})`);
    await client.query(`CREATE TABLE ${quoted} (${definitions.join(', ')})`);
    // Pages are read by fingerprint in the view's order or filtered by a column: an index per sortable/filter column.
    for (const column of storedColumns(columns)) {
      if (column.primaryKey || !(column.sort || column.filter) || sqlTypeOf(column.type) === 'jsonb') continue;
      const index = quoteIdent(`${table.slice(0, 40)}_${column.name.slice(0, 16)}_idx`);
      await client.query(`CREATE INDEX ${index} ON ${quoted} (request_fingerprint, ${quoteIdent(column.name)})`);
    }
    await client.query(`COMMENT ON TABLE ${quoted} IS ${literal(signature)}`);
    // Its rows are the organization's whose view it is (row-level security, migration 0035).
    await client.query('SELECT organization_rows($1)', [table]);
  });
  await client.query('DELETE FROM view_refreshes WHERE view_id = $1', [viewId]);
  return true;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export async function dropTable(client: pg.PoolClient, table: string): Promise<void> {
  await asServer(client, async () => {
    await client.query(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
  });
}

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/** A value as the column's type stores it (JSON-ready), or null when it cannot be one. */
export function coerce(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (sqlTypeOf(type)) {
    case 'numeric': {
      if (typeof value === 'number') return Number.isFinite(value) ? value : null;
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'string') {
        const number = Number(value.trim());
        return value.trim() !== '' && Number.isFinite(number) ? value.trim() : null;
      }
      return null;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'number') return value !== 0;
      if (typeof value === 'string') return /^(true|t|yes|1)$/i.test(value.trim()) ? true : /^(false|f|no|0)$/i.test(value.trim()) ? false : null;
      return null;
    case 'timestamptz': {
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
      if (typeof value === 'number') return new Date(value > 1e12 ? value : value * 1000).toISOString();
      if (typeof value === 'string' && ISO_LIKE.test(value.trim())) {
        const date = new Date(value.trim());
        return Number.isNaN(date.getTime()) ? null : date.toISOString();
      }
      return null;
    }
    case 'jsonb':
      if (typeof value === 'string') {
        const text = value.trim();
        if (text.startsWith('{') || text.startsWith('[')) {
          try {
            const parsed: unknown = JSON.parse(text);
            return parsed;
          } catch {
            return value;
          }
        }
      }
      return value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value;
    default:
      if (typeof value === 'string') return value;
      if (value instanceof Date) return value.toISOString();
      if (typeof value === 'object') return JSON.stringify(value);
      return String(value);
  }
}

const CHUNK = 5000;

/**
 * Replaces the rows of one fingerprint (in the caller's transaction): rows already coerced, keyed by the
 * view's column names. Rows whose primary key is missing are dropped; the last of duplicates wins.
 * Answers how many rows were written and how many dropped.
 */
export async function replaceRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly EngineColumn[],
  fingerprint: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<{ written: number; dropped: number }> {
  const stored = storedColumns(columns);
  const keys = stored.filter((column) => column.primaryKey).map((column) => column.name);
  const unique = new Map<string, Record<string, unknown>>();
  let dropped = 0;
  for (const row of rows) {
    const key = keys.map((name) => row[name]);
    if (key.some((value) => value === null || value === undefined)) {
      dropped += 1;
      continue;
    }
    unique.set(JSON.stringify(key), row);
  }
  const quoted = quoteIdent(table);
  await client.query(`DELETE FROM ${quoted} WHERE request_fingerprint = $1`, [fingerprint]);
  const names = stored.map((column) => quoteIdent(column.name));
  // Positional keys (c0, c1, …) in the JSON so any column name is safe.
  const record = stored.map((column, i) => `c${i} ${sqlTypeOf(column.type)}`).join(', ');
  const select = stored.map((_column, i) => `x.c${i}`).join(', ');
  const all = [...unique.values()];
  for (let start = 0; start < all.length; start += CHUNK) {
    const chunk = all.slice(start, start + CHUNK).map((row) => Object.fromEntries(stored.map((column, i) => [`c${i}`, row[column.name] ?? null])));
    await client.query(
      `INSERT INTO ${quoted} (${[...names, 'request_fingerprint'].join(', ')}) SELECT ${select ? `${select}, ` : ''}$2 FROM jsonb_to_recordset($1::jsonb) AS x(${record || 'c_ text'})`,
      [JSON.stringify(chunk), fingerprint],
    );
  }
  return { written: all.length, dropped };
}
