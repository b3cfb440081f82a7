import pg from 'pg';
import { defineCheckType } from '../define';
import { isUrlForm, safeMessage } from './credentials';
import { sqlConnection, sqlEndpoint, sqlFailure, sqlOutcome, sqlQuery, sqlSchema, sqlTimeoutMs } from './sql';

/**
 * canary-checker maps bigint and numeric columns to numbers (count(*) is a bigint): so do we, so that
 * `results.rows[0].count == 3` holds. A bigint past 2^53 stays text rather than lose digits.
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

/**
 * `postgres`: connects with a client of its own (never the app's pool), runs the query under a statement
 * timeout equal to the check's timeout, and passes when at least `results` rows come back.
 * Variables: results.rows, results.count.
 */
export const postgresCheck = defineCheckType({
  type: 'postgres',
  label: 'PostgreSQL',
  icon: 'database',
  schema: sqlSchema,
  endpoint: sqlEndpoint,
  timeoutMs: sqlTimeoutMs,
  async run(spec, ctx) {
    const connection = sqlConnection(spec);
    const base = isUrlForm(connection) ? { connectionString: connection } : keyValueConfig(connection);
    if (!base) return { pass: false, invalid: true, message: 'url must be a postgres:// URL or libpq key=value pairs (host=… dbname=…)', data: {} };
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let client: pg.Client;
    try {
      client = new pg.Client({
        ...base,
        types,
        statement_timeout: ctx.timeoutMs,
        query_timeout: ctx.timeoutMs,
        connectionTimeoutMillis: ctx.timeoutMs,
        application_name: base.application_name ?? 'watchkeeper-check',
      });
    } catch (error) {
      return { pass: false, invalid: true, message: `url is not a valid connection string: ${safeMessage(error, [spec.password, connection])}`, data: {} };
    }
    // A connection that fails later (server gone) must not become an unhandled 'error' event.
    client.on('error', () => undefined);
    let ending: Promise<void> | undefined;
    const end = () => (ending ??= client.end().catch(() => undefined));
    const abort = () => void end();
    ctx.signal.addEventListener('abort', abort, { once: true });
    try {
      await client.connect();
      const result = await client.query<Record<string, unknown>>(sqlQuery(spec));
      // A multi-statement query answers one result per statement: the last one is the answer.
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      const rows: Array<Record<string, unknown>> = last && Array.isArray(last.rows) ? last.rows : [];
      return sqlOutcome(spec, rows, elapsed());
    } catch (error) {
      return sqlFailure(spec, error, elapsed(), ctx.signal);
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      await end();
    }
  },
});
