import { z } from 'zod';
import type { CheckOutcome } from './outcome';
import { plainValue } from './sql';
import { envVarField, redactConnection, safeMessage, urlPassword, withCredentials } from './credentials';

/** Rows handed to expressions (a check is not an export tool) and rows kept with each result. */
const MAX_ROWS = 1000;
const KEPT_ROWS = 20;

/**
 * canary-checker's SQLCheck fields, shared by postgres and mysql. Its `connection` is a connection string
 * (read as url) or a `connection://` reference to a stored connection (its url and credentials fill the spec).
 */
export const sqlSchema = z
  .object({
    url: z.string().trim().optional(),
    connection: z.string().trim().optional(),
    username: envVarField.optional(),
    password: envVarField.optional(),
    query: z.string().optional(),
    results: z.number().int().min(0, 'must be 0 or more').optional(),
    markFailOnEmpty: z.boolean().optional(),
    timeout: z.number().int().positive('must be a number of seconds').optional(),
  })
  .loose()
  .transform((spec, ctx) => {
    // A connection:// reference is filled in (url, username, password) before the check runs
    // (server/platform/secrets/spec-references.ts); only a spec being applied still holds it.
    const reference = spec.connection?.startsWith('connection://') ? spec.connection : undefined;
    const url = spec.url || (reference ? reference : spec.connection);
    if (!url) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required (or connection, a connection string)' });
      return z.NEVER;
    }
    return { ...spec, url };
  });

export type SqlSpec = z.infer<typeof sqlSchema>;

/** canary-checker runs `SELECT 1` when no query is given. */
export const DEFAULT_QUERY = 'SELECT 1';

export function sqlQuery(spec: SqlSpec): string {
  return spec.query?.trim() ? spec.query : DEFAULT_QUERY;
}

/** The connection string with `$(username)`/`$(password)` filled in and missing credentials added. */
export function sqlConnection(spec: SqlSpec): string {
  return withCredentials(spec.url, spec.username, spec.password);
}

export function sqlEndpoint(spec: SqlSpec): string {
  return redactConnection(spec.url);
}

/** canary-checker's SQL timeout is in seconds; 60 by default. */
export function sqlTimeoutMs(spec: SqlSpec): number {
  return (spec.timeout ?? 60) * 1000;
}

function plainRows(rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  return rows.slice(0, MAX_ROWS).map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, plainValue(value)])));
}

const plural = (count: number) => `${count} row${count === 1 ? '' : 's'}`;

/**
 * The outcome of a query, by canary-checker's rule: it fails when fewer rows came back than `results`, or
 * none at all with `markFailOnEmpty`. Variables: `results.rows` (maps of column to value) and `results.count`.
 */
export function sqlOutcome(spec: SqlSpec, rows: ReadonlyArray<Record<string, unknown>>, duration: number): CheckOutcome {
  const count = rows.length;
  const plain = plainRows(rows);
  const data = { results: { rows: plain, count } };
  const details = { count, rows: plain.slice(0, KEPT_ROWS) };
  if (count === 0 && spec.markFailOnEmpty) return { pass: false, duration, message: 'the query returned no rows', data, details };
  if (spec.results !== undefined && count < spec.results) {
    return { pass: false, duration, message: `the query returned ${plural(count)}, expected at least ${spec.results}`, data, details };
  }
  return { pass: true, duration, message: `the query returned ${plural(count)}`, data, details };
}

/** A connection or query that failed: the message never carries the password. */
export function sqlFailure(spec: SqlSpec, error: unknown, duration: number, signal: AbortSignal, more: ReadonlyArray<string | undefined> = []): CheckOutcome {
  const secrets = [...more, spec.password, urlPassword(sqlConnection(spec)), /password\s*=\s*'?([^'\s;]*)/i.exec(spec.url)?.[1]];
  const reason = signal.aborted ? 'timed out' : safeMessage(error, secrets);
  return { pass: false, duration, message: `the query failed: ${reason}`, error: reason, data: { results: { rows: [], count: 0 } } };
}
