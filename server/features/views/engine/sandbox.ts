import type pg from 'pg';
import { isRecord } from '../../../platform/errors';
import type { Row } from './queries';
import { refusal } from './sql-guard';
import { quoteIdent } from './table';

/**
 * Merge and panel SQL: it sees the view's query results and nothing else. One transaction loads each
 * named query's rows into a TEMP table named after the query (ON COMMIT DROP), grants SELECT on them to
 * the NOLOGIN role watchkeeper_view_reader (migration 0021), turns READ ONLY and SET LOCAL ROLE to it,
 * with a statement timeout. Each statement then runs in a savepoint, so one panel's error is that
 * panel's alone. Nothing may outlive it on the session (issue 35): the guard (sql-guard.ts) refuses
 * anything but one query and, by name, functions with session or server side effects (advisory locks,
 * pg_notify, set_config, dblink, …); the reader role has no EXECUTE on set_config (0021) or the session
 * advisory locks (0039); and the connection is reset after each use (resetSession).
 */

export const READER_ROLE = 'watchkeeper_view_reader';
export const STATEMENT_TIMEOUT_MS = 5_000;
const ROW_LIMIT = 10_000;

export interface SqlOutcome {
  rows: Row[];
  error?: string;
}

/** The PostgreSQL type of a column of query results: the declared one, else what every value is. */
function columnType(declared: string | undefined, values: unknown[]): string {
  switch (declared) {
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
    case 'string':
    case 'health':
    case 'status':
      return 'text';
    case 'labels':
    case 'gauge':
      return 'jsonb';
    default:
      break;
  }
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return 'text';
  if (present.every((value) => typeof value === 'number' || typeof value === 'bigint')) return 'numeric';
  if (present.every((value) => typeof value === 'boolean')) return 'boolean';
  if (present.every((value) => value instanceof Date)) return 'timestamptz';
  if (present.every((value) => typeof value === 'object' && !(value instanceof Date))) return 'jsonb';
  return 'text';
}

function cell(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (type === 'text' && typeof value === 'object') return JSON.stringify(value);
  if (type === 'text') return String(value);
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** Whether the role exists and this server's user may become it. */
export async function readerReady(client: pg.PoolClient): Promise<string | undefined> {
  const { rows } = await client.query<{ ok: boolean | null }>('SELECT pg_has_role(current_user, oid, \'MEMBER\') AS ok FROM pg_roles WHERE rolname = $1', [READER_ROLE]);
  if (rows.length === 0) return `the database has no role ${READER_ROLE} (migration 0021 needs a user that may create roles), so view SQL cannot run safely`;
  if (!rows[0]?.ok) return `the server's database user may not SET ROLE ${READER_ROLE}`;
  const { rows: guard } = await client.query<{ open: boolean; locks: boolean }>(
    `SELECT has_function_privilege($1, 'pg_catalog.set_config(text, text, boolean)', 'EXECUTE') AS open,
            has_function_privilege($1, 'pg_catalog.pg_advisory_lock(bigint)', 'EXECUTE') AS locks`,
    [READER_ROLE],
  );
  if (guard[0]?.open) return `${READER_ROLE} may still call set_config (migration 0021 needs a superuser to revoke it), so view SQL cannot run safely`;
  if (guard[0]?.locks) return `${READER_ROLE} may still take session advisory locks (migration 0039 needs a superuser to revoke pg_advisory_lock from PUBLIC), so view SQL cannot run safely`;
  return undefined;
}

function sqlError(error: unknown): string {
  if (!isRecord(error) || typeof error.message !== 'string') return String(error);
  const code = typeof error.code === 'string' ? error.code : '';
  if (code === '42501' || code === '42P01') {
    return `${error.message}: view SQL reads only the view's query results (tables named after its queries)`;
  }
  if (code === '25006') return `${error.message}: view SQL only reads`;
  if (code === '57014') return `canceled: took longer than ${STATEMENT_TIMEOUT_MS / 1000}s`;
  return error.message;
}

/** Why a text may not run as view SQL (not a query, or a call with a session-level side effect): sql-guard.ts. */
export function notAQuery(statement: string): string | undefined {
  return refusal(statement, STATEMENT_TIMEOUT_MS);
}

function plainRow(row: Row): Row {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value]));
}

/** The rows of one query, from this server: loaded into the TEMP table named after the query (in the caller's transaction). */
export async function loadRows(client: pg.PoolClient, name: string, table: { rows: readonly Row[]; columns?: Record<string, string> | undefined }): Promise<void> {
  const keys = new Set<string>();
  for (const row of table.rows) for (const key of Object.keys(row)) keys.add(key);
  for (const key of Object.keys(table.columns ?? {})) keys.add(key);
  const columns = [...keys].map((key) => ({ key, type: columnType(table.columns?.[key], table.rows.map((row) => row[key])) }));
  const quoted = quoteIdent(name);
  const definitions = columns.length > 0 ? columns.map((column) => `${quoteIdent(column.key)} ${column.type}`).join(', ') : '"_" text';
  await client.query(`CREATE TEMP TABLE ${quoted} (${definitions}) ON COMMIT DROP`);
  if (columns.length > 0 && table.rows.length > 0) {
    const record = columns.map((column, i) => `c${i} ${column.type}`).join(', ');
    for (let start = 0; start < table.rows.length; start += 5000) {
      const chunk = table.rows.slice(start, start + 5000).map((row) => Object.fromEntries(columns.map((column, i) => [`c${i}`, cell(column.type, row[column.key])])));
      await client.query(`INSERT INTO ${quoted} SELECT ${columns.map((_c, i) => `x.c${i}`).join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${record})`, [JSON.stringify(chunk)]);
    }
  }
}

/**
 * The rows of one query run inside the database (configs, changes: `statement` is its SELECT): made
 * into the TEMP table named after the query without passing through this server.
 */
export async function selectRows(client: pg.PoolClient, name: string, statement: { text: string; values: unknown[] }): Promise<void> {
  // CREATE TABLE AS takes no parameters: the (unnamed) prepared SELECT feeds an INSERT instead.
  const quoted = quoteIdent(name);
  await client.query(`CREATE TEMP TABLE ${quoted} ON COMMIT DROP AS SELECT * FROM (${statement.text}) AS q WITH NO DATA`.replace(/\$(\d+)/g, 'NULL'));
  await client.query(`INSERT INTO ${quoted} ${statement.text}`, statement.values);
}

/** After the tables are loaded: statistics for the planner, and SELECT for the reader role (when it is usable). */
export async function shareTable(client: pg.PoolClient, name: string, readable: boolean): Promise<void> {
  const quoted = quoteIdent(name);
  // A small sample is enough for the planner here (the tables live for one refresh); the default reads 30,000 rows.
  await client.query('SET LOCAL default_statistics_target = 10');
  await client.query(`ANALYZE ${quoted}`);
  if (readable) await client.query(`GRANT SELECT ON ${quoted} TO ${READER_ROLE}`);
}

/**
 * Runs `statements` as the reader role in a READ ONLY subtransaction of the caller's transaction, with a
 * statement timeout; everything it set (role, read only, timeout) is undone when it ends, so the caller
 * may go on writing. One outcome per statement, in order.
 */
export async function runStatements(client: pg.PoolClient, statements: readonly string[]): Promise<SqlOutcome[]> {
  if (statements.length === 0) return [];
  await client.query('SAVEPOINT sandbox');
  await client.query(`SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
  await client.query('SET TRANSACTION READ ONLY');
  await client.query(`SET LOCAL ROLE ${READER_ROLE}`);
  const out: SqlOutcome[] = [];
  for (const statement of statements) {
    // A panel without SQL (Mission Control's files may leave it empty): its error, as Mission Control's.
    if (statement.trim() === '') {
      out.push({ rows: [], error: 'query is required' });
      continue;
    }
    await client.query('SAVEPOINT panel');
    try {
      const refused = refusal(statement, STATEMENT_TIMEOUT_MS);
      if (refused) out.push({ rows: [], error: refused });
      else {
        // A bound parameter makes it one statement of the extended protocol: nothing can follow it.
        const result = await client.query<Row>(`SELECT * FROM (${statement.trim().replace(/;\s*$/, '')}\n) AS q LIMIT $1`, [ROW_LIMIT]);
        out.push({ rows: result.rows.map(plainRow) });
      }
    } catch (error) {
      out.push({ rows: [], error: sqlError(error) });
    }
    // Always undone: whatever a statement set (a setting, through a function) ends with it.
    await client.query('ROLLBACK TO SAVEPOINT panel');
  }
  await client.query('ROLLBACK TO SAVEPOINT sandbox');
  await client.query('RELEASE SAVEPOINT sandbox');
  const { rows } = await client.query<{ user: string; ro: string }>("SELECT current_user AS user, current_setting('transaction_read_only') AS ro");
  if (rows[0]?.user === READER_ROLE || rows[0]?.ro !== 'off') throw new Error('the view SQL sandbox did not end');
  return out;
}

/**
 * After view SQL ran on `client` (its transaction ended): drops what could outlive it on the pooled
 * connection, session advisory locks and LISTENs, whatever got past the guard and the reader role. Not
 * RESET ALL or DISCARD ALL: in hosted mode the connection's organization scope is a session setting
 * (server/platform/db/tenant.ts) that must stay. Answers false when it could not (the caller then
 * destroys the connection instead of releasing it).
 */
export async function resetSession(client: pg.PoolClient): Promise<boolean> {
  try {
    await client.query('SELECT pg_advisory_unlock_all(); UNLISTEN *');
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `statements` over the query results. Answers one outcome per statement, in order; a statement
 * that fails gets its error and the others still run. Throws only when the sandbox cannot be set up.
 */
export async function runSandboxed(
  pool: pg.Pool,
  tables: ReadonlyMap<string, { rows: readonly Row[]; columns?: Record<string, string> | undefined }>,
  statements: readonly string[],
): Promise<SqlOutcome[]> {
  if (statements.length === 0) return [];
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const problem = await readerReady(client);
    if (problem) {
      await client.query('ROLLBACK');
      return statements.map(() => ({ rows: [], error: problem }));
    }
    for (const [name, table] of tables) {
      await loadRows(client, name, table);
      await shareTable(client, name, true);
    }
    const out = await runStatements(client, statements);
    await client.query('ROLLBACK');
    return out;
  } catch (error) {
    broken = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    const clean = !broken && (await resetSession(client));
    client.release(!clean);
  }
}
