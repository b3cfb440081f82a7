import mysql from 'mysql2/promise';
import pg from 'pg';
import { assertEgressResolved } from '../egress-connect';
import { isRecord } from '../errors';
import { isUrlForm, safeMessage, withCredentials } from './credentials';

/**
 * Queries against a user's own PostgreSQL or MySQL/MariaDB (health checks, catalog scrapers, playbook sql
 * actions, view queries, connection tests): one client per query, never the app's pool, limited in time,
 * stopped by the caller's signal, and only to a host the egress policy admits (egress-connect.ts).
 */

/** A database as canary-checker and config-db write it: a url with optional `$(username)`/`$(password)`. */
export interface SqlTarget {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
}

export interface SqlQueryOptions {
  timeoutMs: number;
  signal: AbortSignal;
  applicationName?: string;
}

/** The url cannot be a connection (its form, not the server, is wrong): the caller's input is invalid. */
export class SqlConnectionInvalid extends Error {}

/**
 * canary-checker and config-db map bigint and numeric columns to numbers (count(*) is a bigint): so do we,
 * so that `results.rows[0].count == 3` holds. A bigint past 2^53 stays text rather than lose digits.
 */
const types = new pg.TypeOverrides();
types.setTypeParser(pg.types.builtins.INT8, (text: string) => (Number.isSafeInteger(Number(text)) ? Number(text) : text));
types.setTypeParser(pg.types.builtins.NUMERIC, (text: string) => Number(text));

const KEY_VALUE = /([A-Za-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']*)/g;

/** libpq's `host=… port=… dbname=…` form, which lib/pq (and so canary-checker) accepts beside URLs. */
function keyValueConfig(text: string): pg.ClientConfig | undefined {
  const config: pg.ClientConfig = {};
  let found = false;
  for (const match of text.matchAll(KEY_VALUE)) {
    const key = match[1]?.toLowerCase() ?? '';
    const raw = match[2] ?? '';
    const value = raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    found = true;
    if (key === 'host') config.host = value;
    else if (key === 'port') config.port = Number(value);
    else if (key === 'user') config.user = value;
    else if (key === 'password') config.password = value;
    else if (key === 'dbname') config.database = value;
    else if (key === 'application_name') config.application_name = value;
    else if (key === 'sslmode') config.ssl = value === 'disable' || value === 'allow' || value === 'prefer' ? false : { rejectUnauthorized: value === 'verify-full' || value === 'verify-ca' };
  }
  return found ? config : undefined;
}

/** Which server a url names: postgres:// and libpq pairs are PostgreSQL; mysql:// and Go DSNs are MySQL. */
export function sqlDriverOf(url: string): 'postgres' | 'mysql' | undefined {
  const text = url.trim();
  if (/^postgres(ql)?:\/\//i.test(text) || /\b(host|dbname)\s*=/.test(text)) return 'postgres';
  if (/^mysql:\/\//i.test(text) || /@(tcp|unix)\(/.test(text)) return 'mysql';
  return undefined;
}

/**
 * Runs one query on PostgreSQL under a statement timeout; the rows of the last statement. Throws
 * SqlConnectionInvalid for a url that is no connection, and the server's error (without the password) otherwise.
 */
export async function queryPostgres(target: SqlTarget, query: string, options: SqlQueryOptions): Promise<Array<Record<string, unknown>>> {
  const connection = withCredentials(target.url, target.username, target.password);
  const base = isUrlForm(connection) ? { connectionString: connection } : keyValueConfig(connection);
  if (!base) throw new SqlConnectionInvalid('url must be a postgres:// URL or libpq key=value pairs (host=… dbname=…)');
  let client: pg.Client;
  try {
    client = new pg.Client({
      ...base,
      types,
      statement_timeout: options.timeoutMs,
      query_timeout: options.timeoutMs,
      connectionTimeoutMillis: options.timeoutMs,
      application_name: base.application_name ?? options.applicationName ?? 'watchkeeper',
    });
  } catch (error) {
    throw new SqlConnectionInvalid(`url is not a valid connection string: ${safeMessage(error, [target.password, connection])}`);
  }
  // The egress policy judges the host (and its addresses) before the driver connects.
  await assertEgressResolved(client.host ?? '');
  // A connection that fails later (server gone) must not become an unhandled 'error' event.
  client.on('error', () => undefined);
  let ending: Promise<void> | undefined;
  const end = () => (ending ??= client.end().catch(() => undefined));
  const abort = () => void end();
  options.signal.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    const result = await client.query<Record<string, unknown>>(query);
    // A multi-statement query answers one result per statement: the last one is the answer.
    const last = Array.isArray(result) ? (result[result.length - 1] as pg.QueryResult<Record<string, unknown>> | undefined) : result;
    return last && Array.isArray(last.rows) ? last.rows : [];
  } finally {
    options.signal.removeEventListener('abort', abort);
    await end();
  }
}

/**
 * The Go driver's DSN that canary-checker uses: `user:password@tcp(host:3306)/db?tls=skip-verify`, with or
 * without a `mysql://` prefix. The password is greedy, so one containing `@` still parses.
 */
const GO_DSN = /^(?:(?<user>[^:@]*)(?::(?<password>.*))?@)?(?<protocol>tcp|unix)?(?:\((?<address>[^)]*)\))?\/(?<database>[^?]*)(?:\?(?<params>.*))?$/;

export type MysqlConnectable = Pick<mysql.ConnectionOptions, 'host' | 'port' | 'socketPath' | 'user' | 'password' | 'database' | 'ssl'>;

function fill(template: string, target: SqlTarget): string {
  return template.replaceAll('$(username)', target.username ?? '').replaceAll('$(password)', target.password ?? '');
}

function tlsOption(value: string | null | undefined): MysqlConnectable['ssl'] {
  if (value === 'true' || value === 'preferred') return {};
  if (value === 'skip-verify') return { rejectUnauthorized: false };
  return undefined;
}

function hostPort(address: string): { host: string; port: number } {
  const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(address);
  return { host: match?.[1] || '127.0.0.1', port: Number(match?.[2] ?? 3306) };
}

/** Connection options from a MySQL url, with `$(username)`/`$(password)` and the credential fields filled in; a text says what is wrong. */
export function mysqlOptions(target: SqlTarget): MysqlConnectable | string {
  const text = target.url.trim();
  const dsn = GO_DSN.exec(text.startsWith('mysql://') ? text.slice('mysql://'.length) : text)?.groups;
  let options: MysqlConnectable;
  if (dsn) {
    const params = new URLSearchParams(dsn.params ?? '');
    const address = dsn.address ?? '127.0.0.1:3306';
    options = {
      ...(dsn.protocol === 'unix' ? { socketPath: address } : hostPort(address)),
      user: fill(dsn.user ?? '', target),
      password: fill(dsn.password ?? '', target),
      database: decodeURIComponent(dsn.database ?? ''),
      ssl: tlsOption(params.get('tls')),
    };
  } else if (text.startsWith('mysql://')) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'url is not a valid mysql:// URL';
    }
    options = {
      host: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: Number(url.port || 3306),
      user: fill(decodeURIComponent(url.username), target),
      password: fill(decodeURIComponent(url.password), target),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
      ssl: tlsOption(url.searchParams.get('tls') ?? url.searchParams.get('ssl')),
    };
  } else {
    return 'url must be user:password@tcp(host:3306)/database or mysql://user:password@host:3306/database';
  }
  if (!options.user && target.username) options.user = target.username;
  if (!options.password && target.password) options.password = target.password;
  if (!options.database) delete options.database;
  if (!options.ssl) delete options.ssl;
  return options;
}

/**
 * Runs one query on MySQL or MariaDB, limited server-side where the server supports it and client-side.
 * Throws SqlConnectionInvalid for a url that is no connection.
 */
export async function queryMysql(target: SqlTarget, query: string, options: SqlQueryOptions): Promise<Array<Record<string, unknown>>> {
  const connectable = mysqlOptions(target);
  if (typeof connectable === 'string') throw new SqlConnectionInvalid(connectable);
  if (connectable.socketPath === undefined) await assertEgressResolved(connectable.host ?? '');
  let connection: mysql.Connection | undefined;
  const abort = () => connection?.destroy();
  options.signal.addEventListener('abort', abort, { once: true });
  try {
    connection = await mysql.createConnection({
      ...connectable,
      connectTimeout: options.timeoutMs,
      decimalNumbers: true,
      supportBigNumbers: true,
      multipleStatements: false,
    });
    // A connection that drops later must not become an unhandled 'error' event.
    connection.on('error', () => undefined);
    if (options.signal.aborted) throw new Error('timed out');
    const seconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
    // MariaDB and MySQL name the limit differently; a server with neither keeps the client-side timeout.
    await connection.query(`SET SESSION max_statement_time = ${seconds}`).catch(() => connection?.query(`SET SESSION max_execution_time = ${seconds * 1000}`).catch(() => undefined));
    const [rows] = await connection.query<mysql.RowDataPacket[]>({ sql: query, timeout: options.timeoutMs });
    return Array.isArray(rows) ? rows : [];
  } catch (error) {
    // The password may sit in the driver's message (an access-denied text quotes the user only, but be sure).
    if (error instanceof Error && connectable.password) error.message = safeMessage(error, [connectable.password]);
    throw error;
  } finally {
    options.signal.removeEventListener('abort', abort);
    connection?.destroy();
  }
}

/**
 * A database value as expressions can use it: numbers stay numbers, dates become ISO texts, bytes become
 * text, JSON columns stay structured.
 */
export function plainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (Array.isArray(value)) return value.map(plainValue);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainValue(item)]));
  return value;
}
