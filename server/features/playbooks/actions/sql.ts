import type { ResolvedConnection } from '../../../platform/connections/types';
import { isUrlForm } from '../../../platform/peers/credentials';
import { mysqlOptions, plainValue, queryMysql, queryPostgres, SqlConnectionInvalid, sqlDriverOf, type SqlTarget } from '../../../platform/peers/sql';
import { sqlFailure, sqlSchema } from '../../../platform/peers/sql-check';
import type { SqlTemplateParts } from '../contextual/action';
import { TemplateValueRefused } from '../contextual/shared';
import { renderQuery } from '../contextual/sql';
import { actionConnection, envValueOf, notRun, stopReason } from './shared';
import type { ActionContext, ActionOutcome } from './types';

type Spec = NonNullable<ActionContext['spec']['sql']>;
type Driver = 'postgres' | 'mysql' | 'sqlserver';

/** Rows kept in the result (it is stored with the run and shown on its page). */
const MAX_ROWS = 1000;
/**
 * The driver's own limit on connecting and on the statement: a backstop, since the action's timeout
 * (its signal) ends the query first whenever it is shorter.
 */
const QUERY_TIMEOUT_MS = 10 * 60_000;

const DRIVERS: Readonly<Record<string, Driver>> = {
  postgres: 'postgres',
  postgresql: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
  sqlserver: 'sqlserver',
  sql_server: 'sqlserver',
  mssql: 'sqlserver',
};

/** A connection string written in `connection` (the sql check accepts one there too), rather than a connection's name. */
function isConnectionString(text: string): boolean {
  return !text.startsWith('connection://') && (isUrlForm(text) || sqlDriverOf(text) !== undefined);
}

/** Where the query goes: the url (or a connection string in `connection`), else the stored connection's. */
async function targetOf(ctx: ActionContext, spec: Spec): Promise<{ target: SqlTarget; connection: ResolvedConnection | undefined }> {
  const reference = spec.connection?.trim();
  const connection = reference && !isConnectionString(reference) ? await actionConnection(ctx, reference, 'sql.connection') : undefined;
  const url = spec.url?.trim() || (reference && !connection ? reference : connection?.url) || '';
  const username = (await envValueOf(ctx, spec.username, 'sql.username')) || connection?.username;
  const password = (await envValueOf(ctx, spec.password, 'sql.password')) || connection?.password;
  return { target: { url, username, password }, connection };
}

function driverOf(spec: Spec, target: SqlTarget, connection: ResolvedConnection | undefined): Driver | string {
  const named = spec.driver?.trim().toLowerCase() || connection?.type;
  if (named) return (Object.hasOwn(DRIVERS, named) ? DRIVERS[named] : undefined) ?? `driver ${JSON.stringify(named)} is not one of postgres, mysql or sqlserver`;
  if (/^(sqlserver|mssql):\/\//i.test(target.url)) return 'sqlserver';
  return sqlDriverOf(target.url) ?? 'sql: give a driver (postgres or mysql), or a url that names it (postgres://, mysql://)';
}

/**
 * `sql` (Mission Control's SQLAction): runs the query on PostgreSQL or MySQL/MariaDB, reached through
 * `url` or the `connection` (its url and credentials fill what the action leaves empty), with a client of
 * its own as the sql checks connect. Result: {rows, count}, rows capped at 1000 (then `truncated`).
 */
export async function sql(ctx: ActionContext): Promise<ActionOutcome> {
  const spec = ctx.spec.sql;
  if (!spec) return { result: {}, error: 'the action has no sql block' };
  let resolved: Awaited<ReturnType<typeof targetOf>>;
  try {
    resolved = await targetOf(ctx, spec);
  } catch (error) {
    return notRun(error);
  }
  const { target, connection } = resolved;
  if (!target.url) return { result: {}, error: 'sql: needs a url, or a connection that has one' };
  const driver = driverOf(spec, target, connection);
  if (driver === 'sqlserver') return { result: {}, error: 'driver sqlserver is not supported on this console (postgres and mysql are)' };
  if (driver !== 'postgres' && driver !== 'mysql') return { result: {}, error: driver };
  const options = { timeoutMs: QUERY_TIMEOUT_MS, signal: ctx.signal, applicationName: 'watchkeeper-playbook' };
  // Template values in the query are quoted again for the dialect the connection turned out to speak.
  let query = spec.query;
  const parts = (spec as SqlTemplateParts).templateParts;
  if (Array.isArray(parts)) {
    try {
      query = renderQuery('sql.query', parts, driver).query;
    } catch (error) {
      if (error instanceof TemplateValueRefused) return { result: { rows: [], count: 0 }, error: error.message };
      throw error;
    }
  }
  try {
    const rows = driver === 'postgres' ? await queryPostgres(target, query, options) : await queryMysql(target, query, options);
    const plain = rows.slice(0, MAX_ROWS).map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, plainValue(value)])));
    return { result: { rows: plain, count: rows.length, ...(rows.length > MAX_ROWS ? { truncated: true } : {}) } };
  } catch (error) {
    if (ctx.signal.aborted) return { result: { rows: [], count: 0 }, error: stopReason(ctx.signal) };
    if (error instanceof SqlConnectionInvalid) return { result: { rows: [], count: 0 }, error: `sql.url: ${error.message}` };
    // The sql checks' message: the query failed, without the password however the url carried it.
    const check = sqlSchema.parse({ url: target.url, username: target.username, password: target.password });
    const more = driver === 'mysql' ? mysqlOptions(target) : undefined;
    const failure = sqlFailure(check, error, 0, ctx.signal, [connection?.password, typeof more === 'object' ? more.password : undefined]);
    return { result: { rows: [], count: 0 }, error: failure.message };
  }
}
