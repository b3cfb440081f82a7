import { queryPostgres, SqlConnectionInvalid } from '../../../platform/peers/sql';
import { defineCheckType } from '../define';
import { sqlFailure, sqlOutcome, sqlQuery, sqlSchema, sqlEndpoint, sqlTimeoutMs } from '../../../platform/peers/sql-check';

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
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const rows = await queryPostgres(spec, sqlQuery(spec), { timeoutMs: ctx.timeoutMs, signal: ctx.signal, applicationName: 'watchkeeper-check' });
      return sqlOutcome(spec, rows, elapsed());
    } catch (error) {
      if (error instanceof SqlConnectionInvalid) return { pass: false, invalid: true, message: error.message, data: {} };
      return sqlFailure(spec, error, elapsed(), ctx.signal);
    }
  },
});
