import mysql from 'mysql2/promise';
import { defineCheckType } from '../define';
import { sqlEndpoint, sqlFailure, sqlOutcome, sqlQuery, sqlSchema, sqlTimeoutMs, type SqlSpec } from './sql';

/**
 * The Go driver's DSN that canary-checker uses: `user:password@tcp(host:3306)/db?tls=skip-verify`, with or
 * without a `mysql://` prefix. The password is greedy, so one containing `@` still parses.
 */
const GO_DSN = /^(?:(?<user>[^:@]*)(?::(?<password>.*))?@)?(?<protocol>tcp|unix)?(?:\((?<address>[^)]*)\))?\/(?<database>[^?]*)(?:\?(?<params>.*))?$/;

type Connectable = Pick<mysql.ConnectionOptions, 'host' | 'port' | 'socketPath' | 'user' | 'password' | 'database' | 'ssl'>;

function fill(template: string, spec: SqlSpec): string {
  return template.replaceAll('$(username)', spec.username ?? '').replaceAll('$(password)', spec.password ?? '');
}

function tlsOption(value: string | null | undefined): Connectable['ssl'] {
  if (value === 'true' || value === 'preferred') return {};
  if (value === 'skip-verify') return { rejectUnauthorized: false };
  return undefined;
}

function hostPort(address: string): { host: string; port: number } {
  const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(address);
  return { host: match?.[1] || '127.0.0.1', port: Number(match?.[2] ?? 3306) };
}

/** Connection options from the check's url, with `$(username)`/`$(password)` and the credential fields filled in. */
export function mysqlOptions(spec: SqlSpec): Connectable | string {
  const text = spec.url.trim();
  const dsn = GO_DSN.exec(text.startsWith('mysql://') ? text.slice('mysql://'.length) : text)?.groups;
  let options: Connectable;
  if (dsn) {
    const params = new URLSearchParams(dsn.params ?? '');
    const address = dsn.address ?? '127.0.0.1:3306';
    options = {
      ...(dsn.protocol === 'unix' ? { socketPath: address } : hostPort(address)),
      user: fill(dsn.user ?? '', spec),
      password: fill(dsn.password ?? '', spec),
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
      user: fill(decodeURIComponent(url.username), spec),
      password: fill(decodeURIComponent(url.password), spec),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
      ssl: tlsOption(url.searchParams.get('tls') ?? url.searchParams.get('ssl')),
    };
  } else {
    return 'url must be user:password@tcp(host:3306)/database or mysql://user:password@host:3306/database';
  }
  if (!options.user && spec.username) options.user = spec.username;
  if (!options.password && spec.password) options.password = spec.password;
  if (!options.database) delete options.database;
  if (!options.ssl) delete options.ssl;
  return options;
}

/**
 * `mysql` (MySQL and MariaDB): connects with a connection of its own, limits the statement to the check's
 * timeout (server-side where the server supports it, and client-side), and passes when at least `results`
 * rows come back. Variables: results.rows, results.count.
 */
export const mysqlCheck = defineCheckType({
  type: 'mysql',
  label: 'MySQL',
  icon: 'database',
  schema: sqlSchema,
  endpoint: sqlEndpoint,
  timeoutMs: sqlTimeoutMs,
  async run(spec, ctx) {
    const options = mysqlOptions(spec);
    if (typeof options === 'string') return { pass: false, invalid: true, message: options, data: {} };
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let connection: mysql.Connection | undefined;
    const abort = () => connection?.destroy();
    ctx.signal.addEventListener('abort', abort, { once: true });
    try {
      connection = await mysql.createConnection({
        ...options,
        connectTimeout: ctx.timeoutMs,
        decimalNumbers: true,
        supportBigNumbers: true,
        multipleStatements: false,
      });
      // A connection that drops later must not become an unhandled 'error' event.
      connection.on('error', () => undefined);
      if (ctx.signal.aborted) throw new Error('timed out');
      const seconds = Math.max(1, Math.ceil(ctx.timeoutMs / 1000));
      // MariaDB and MySQL name the limit differently; a server with neither keeps the client-side timeout.
      await connection.query(`SET SESSION max_statement_time = ${seconds}`).catch(() => connection?.query(`SET SESSION max_execution_time = ${seconds * 1000}`).catch(() => undefined));
      const [rows] = await connection.query<mysql.RowDataPacket[]>({ sql: sqlQuery(spec), timeout: ctx.timeoutMs });
      return sqlOutcome(spec, Array.isArray(rows) ? rows : [], elapsed());
    } catch (error) {
      return sqlFailure(spec, error, elapsed(), ctx.signal, [options.password]);
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      connection?.destroy();
    }
  },
});
