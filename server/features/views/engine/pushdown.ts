import type pg from 'pg';
import { isRecord } from '../../../platform/errors';
import type { Row } from './queries';
import { coerce, quoteIdent, sqlTypeOf, storedColumns, type EngineColumn } from './table';

/**
 * The view's rows written from the TEMP table of its one query (configs, changes) inside the database:
 * the rows never pass through this server. Each column is either
 *  - a direct SQL expression, when the value is a column of the query read as is (`name`, `row.created_at`)
 *    and PostgreSQL converts it to the column's type exactly as `coerce` would; or
 *  - a lookup: its mapping (CEL, or a path into a jsonb column) evaluated here once per distinct input —
 *    the parts of the row it reads (`row.tags.namespace`, `row.type`) — and joined back by that input.
 * A mapping that reads `row` other than through `row.a.b` paths cannot say what it reads: `plan` then
 * answers undefined and the caller maps every row here.
 */

/** One part of a row a mapping reads: a column of the query and a path into it (jsonb columns). */
interface Input {
  column: string;
  path: string[];
}

type Evaluate = (row: Row) => unknown;

interface Lookup {
  column: EngineColumn;
  inputs: Input[];
  evaluate: Evaluate;
}

export interface PushdownPlan {
  direct: Map<string, string>;
  lookups: Lookup[];
}

const REF = /\brow((?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)+)(\s*\()?/g;

/** The `row.a.b` paths a CEL expression reads (a method call's name is not a key), or undefined when it reads `row` otherwise. */
export function rowPaths(expression: string): string[][] | undefined {
  const paths: string[][] = [];
  const rest = expression.replace(REF, (_match, chain: string, call: string | undefined) => {
    const keys = chain.split('.').map((key) => key.trim()).filter(Boolean);
    if (call) keys.pop();
    if (keys.length === 0) return '@';
    paths.push(keys);
    return call ? '_(' : '_';
  });
  // `row` used whole, indexed (`row["a"]`), or as a macro's range: every field may matter.
  if (/\brow\b/.test(rest) || /@/.test(rest)) return undefined;
  return paths;
}

/** Shortest prefixes only: reading `row.config` covers `row.config.spec.replicas`. */
function inputsOf(paths: string[][], types: ReadonlyMap<string, string>): Input[] {
  const inputs: Input[] = [];
  const sorted = [...paths].sort((a, b) => a.length - b.length);
  for (const path of sorted) {
    const [column, ...rest] = path;
    if (column === undefined || !types.has(column)) continue;
    const keys = types.get(column) === 'jsonb' ? rest : [];
    const covered = inputs.some((input) => input.column === column && input.path.length <= keys.length && input.path.every((key, i) => key === keys[i]));
    if (!covered) inputs.push({ column, path: keys });
  }
  return inputs;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The jsonb `value` reduced to what `path` reads: the keys along it, the value at its end (a non-object stops it whole). */
function pruned(value: string, path: readonly string[]): string {
  const [key, ...rest] = path;
  if (key === undefined) return value;
  const inner = `${value} -> ${literal(key)}`;
  return `CASE WHEN jsonb_typeof(${value}) = 'object' THEN CASE WHEN ${value} ? ${literal(key)} THEN jsonb_build_object(${literal(key)}, ${pruned(inner, rest)}) ELSE '{}'::jsonb END ELSE ${value} END`;
}

function inputSql(input: Input, alias: string): string {
  return pruned(`${alias}.${quoteIdent(input.column)}`, input.path);
}

function merged(a: unknown, b: unknown): unknown {
  if (!isRecord(a) || !isRecord(b) || Array.isArray(a) || Array.isArray(b)) return a ?? b;
  const out: Row = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = key in out ? merged(out[key], value) : value;
  return out;
}

/** The SQL expression of a column read as is, when PostgreSQL's conversion matches `coerce`; else undefined. */
function directSql(source: string, sourceType: string, target: string): string | undefined {
  const integer = ['smallint', 'integer', 'bigint'].includes(sourceType);
  switch (target) {
    case 'text':
      if (['text', 'character varying', 'boolean', 'numeric'].includes(sourceType) || integer) return sourceType === 'text' ? source : `${source}::text`;
      return undefined;
    case 'numeric':
      return sourceType === 'numeric' || integer ? `${source}::numeric` : undefined;
    case 'boolean':
      return sourceType === 'boolean' ? source : undefined;
    case 'timestamptz':
      // This server reads timestamps to the millisecond.
      return sourceType === 'timestamp with time zone' ? `date_trunc('milliseconds', ${source})` : undefined;
    default:
      return undefined;
  }
}

const PATH = /^row(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * How each stored column gets its value from the query's table (`types`: its columns and their
 * PostgreSQL types), or undefined when a mapping reads the row in a way only a whole row answers.
 * `mapper` is the engine's own per-row mapping of a column (the same function the rows mapped here use).
 */
export function plan(
  columns: readonly EngineColumn[],
  mapping: Record<string, unknown>,
  types: ReadonlyMap<string, string>,
  mapper: (column: string, expression: string) => (row: Row) => unknown,
): PushdownPlan | undefined {
  const direct = new Map<string, string>();
  const lookups: Lookup[] = [];
  for (const column of storedColumns(columns)) {
    const expression = typeof mapping[column.name] === 'string' && String(mapping[column.name]).trim() !== '' ? String(mapping[column.name]).trim() : undefined;
    const path = expression === undefined ? [column.name] : PATH.test(expression) ? expression.split('.').slice(1) : undefined;
    if (path) {
      const [first, ...rest] = path;
      const sourceType = types.get(first ?? '');
      if (sourceType === undefined) {
        direct.set(column.name, 'NULL');
        continue;
      }
      const sql = rest.length === 0 ? directSql(`s.${quoteIdent(first ?? '')}`, sourceType, sqlTypeOf(column.type)) : undefined;
      if (sql) {
        direct.set(column.name, sql);
        continue;
      }
      const keys = path;
      lookups.push({
        column,
        inputs: inputsOf([path], types),
        evaluate: (row) => {
          let current: unknown = row;
          for (const key of keys) {
            if (!isRecord(current)) return null;
            current = current[key];
          }
          return current ?? null;
        },
      });
      continue;
    }
    const paths = rowPaths(expression ?? '');
    if (!paths) return undefined;
    const map = mapper(column.name, expression ?? '');
    lookups.push({ column, inputs: inputsOf(paths, types), evaluate: map });
  }
  return { direct, lookups };
}

/** Text of a coerced value as PostgreSQL reads it into the column's type. */
function valueText(type: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') return JSON.stringify(value);
  return String(value);
}

/**
 * Writes the rows of `source` (a TEMP table) into `table` for `fingerprint` (in the caller's
 * transaction, after the fingerprint's old rows are deleted): rows whose primary key is empty are
 * dropped, and of rows sharing a key the last one wins, as when rows are written from this server.
 */
export async function writeRows(client: pg.PoolClient, table: string, source: string, columns: readonly EngineColumn[], fingerprint: string, pushdown: PushdownPlan): Promise<number> {
  const stored = storedColumns(columns);
  const joins: string[] = [];
  const values = new Map(pushdown.direct);
  for (const [i, lookup] of pushdown.lookups.entries()) {
    const type = sqlTypeOf(lookup.column.type);
    const key = `jsonb_build_array(${lookup.inputs.map((input) => inputSql(input, 's')).join(', ')})`;
    const groups = await client.query<Row & { k: string }>(
      `SELECT jsonb_build_array(${lookup.inputs.map((_input, j) => `i${j}`).join(', ')})::text AS k${lookup.inputs.map((_input, j) => `, i${j}`).join('')}
         FROM (SELECT ${lookup.inputs.map((input, j) => `${inputSql(input, 's')} AS i${j}`).join(', ') || '1 AS _'} FROM pg_temp.${quoteIdent(source)} s) g
        GROUP BY ${lookup.inputs.map((_input, j) => `i${j}`).join(', ') || '()'}`,
    );
    const keys: string[] = [];
    const results: Array<string | null> = [];
    for (const group of groups.rows) {
      const row: Row = {};
      lookup.inputs.forEach((input, j) => {
        const value = group[`i${j}`];
        row[input.column] = input.column in row ? merged(row[input.column], value) : value;
      });
      keys.push(group.k);
      results.push(valueText(type, coerce(lookup.column.type, lookup.evaluate(row))));
    }
    const lookupTable = quoteIdent(`_wk_map_${i}`);
    await client.query(`CREATE TEMP TABLE ${lookupTable} (k jsonb PRIMARY KEY, v ${type}) ON COMMIT DROP`);
    await client.query(`INSERT INTO ${lookupTable} SELECT u.k::jsonb, u.v::${type} FROM unnest($1::text[], $2::text[]) AS u(k, v)`, [keys, results]);
    await client.query(`ANALYZE ${lookupTable}`);
    joins.push(`LEFT JOIN ${lookupTable} m${i} ON m${i}.k = ${key}`);
    values.set(lookup.column.name, `m${i}.v`);
  }
  const keys = stored.filter((column) => column.primaryKey).map((column) => quoteIdent(column.name));
  const names = stored.map((column) => quoteIdent(column.name));
  const selected = stored.map((column) => `${values.get(column.name) ?? 'NULL'}::${sqlTypeOf(column.type)} AS ${quoteIdent(column.name)}`);
  const result = await client.query(
    `INSERT INTO public.${quoteIdent(table)} (${[...names, 'request_fingerprint'].join(', ')})
     SELECT DISTINCT ON (${keys.join(', ')}) ${names.join(', ')}, $1 FROM (
       SELECT ${selected.join(', ')}, s.ctid AS _wk_order FROM pg_temp.${quoteIdent(source)} s ${joins.join(' ')}
     ) x WHERE ${keys.map((key) => `${key} IS NOT NULL`).join(' AND ')}
     ORDER BY ${keys.join(', ')}, _wk_order DESC`,
    [fingerprint],
  );
  return result.rowCount ?? 0;
}

/** The columns of a TEMP table and their PostgreSQL types. */
export async function tableTypes(client: pg.PoolClient, name: string): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; type: string }>(
    'SELECT attname AS name, format_type(atttypid, NULL) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum',
    [`pg_temp.${quoteIdent(name)}`],
  );
  return new Map(rows.map((row) => [row.name, row.type]));
}
