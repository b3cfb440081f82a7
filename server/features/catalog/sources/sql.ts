import { z } from 'zod';
import { envVarField, redactConnection, safeMessage, urlPassword } from '../../../platform/peers/credentials';
import { plainValue, queryMysql, queryPostgres, sqlDriverOf } from '../../../platform/peers/sql';
import type { SourceType } from '../types';

/** Rows one query may return: more is a query that forgot its WHERE, reported rather than stored. */
export const MAX_SQL_ROWS = 100_000;

const sqlEntry = z
  .object({
    /** config-db names the database `connection`; canary-checker's `url` is accepted too. */
    connection: z.string().trim().min(1, 'is required').optional(),
    url: z.string().trim().min(1, 'is required').optional(),
    driver: z.enum(['postgres', 'mysql'], { message: 'must be postgres or mysql' }).optional(),
    username: envVarField.optional(),
    password: envVarField.optional(),
    auth: z.object({ username: envVarField.optional(), password: envVarField.optional() }).optional(),
    query: z.string({ message: 'is required' }).trim().min(1, 'is required'),
    /** Seconds, as canary-checker writes timeouts; 60 by default. */
    timeout: z.number().int().positive('must be a number of seconds').optional(),
  })
  .superRefine((entry, ctx) => {
    const url = entry.connection ?? entry.url;
    if (!url) {
      ctx.addIssue({ code: 'custom', path: ['connection'], message: 'is required: a postgres:// or mysql:// URL (or a Go DSN user:pass@tcp(host:3306)/db)' });
      return;
    }
    // A connection:// reference is filled in (its url and credentials) before the entry runs.
    if (!url.startsWith('connection://') && !entry.driver && !sqlDriverOf(url)) {
      ctx.addIssue({ code: 'custom', path: ['driver'], message: 'cannot tell the database from the connection; set driver to postgres or mysql' });
    }
  });

/**
 * `sql`: a query against PostgreSQL or MySQL/MariaDB, one result per row (the row's columns are the
 * config; map `id`, `name` and `type` from them, e.g. `id: $.id`). Credentials never appear in errors.
 */
export const sqlSource: SourceType<z.infer<typeof sqlEntry>> = {
  key: 'sql',
  label: 'SQL',
  schema: sqlEntry,
  async scrape(entry, ctx) {
    const url = entry.connection ?? entry.url ?? '';
    const target = { url, username: entry.auth?.username ?? entry.username, password: entry.auth?.password ?? entry.password };
    const driver = entry.driver ?? sqlDriverOf(url);
    const options = { timeoutMs: (entry.timeout ?? 60) * 1000, signal: ctx.signal, applicationName: 'watchkeeper-scraper' };
    let rows: Array<Record<string, unknown>>;
    try {
      rows = driver === 'mysql' ? await queryMysql(target, entry.query, options) : await queryPostgres(target, entry.query, options);
    } catch (error) {
      throw new Error(ctx.signal.aborted ? 'the query timed out' : `the query failed: ${safeMessage(error, [target.password, urlPassword(url)])}`);
    }
    if (rows.length > MAX_SQL_ROWS) throw new Error(`the query returned ${rows.length} rows, more than the ${MAX_SQL_ROWS} one scraper entry may store; narrow it`);
    const source = `sql:${redactConnection(url)}`;
    return rows.map((row) => ({ config: plainValue({ ...row }), source }));
  },
};
