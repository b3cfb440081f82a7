import { mysqlOptions, queryMysql, SqlConnectionInvalid } from '../../../platform/peers/sql';
import { defineCheckType } from '../define';
import { sqlEndpoint, sqlFailure, sqlOutcome, sqlQuery, sqlSchema, sqlTimeoutMs } from '../../../platform/peers/sql-check';

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
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const rows = await queryMysql(spec, sqlQuery(spec), { timeoutMs: ctx.timeoutMs, signal: ctx.signal });
      return sqlOutcome(spec, rows, elapsed());
    } catch (error) {
      if (error instanceof SqlConnectionInvalid) return { pass: false, invalid: true, message: error.message, data: {} };
      const options = mysqlOptions(spec);
      return sqlFailure(spec, error, elapsed(), ctx.signal, [typeof options === 'string' ? undefined : options.password]);
    }
  },
});
