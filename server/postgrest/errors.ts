import pg from 'pg';

/**
 * PostgREST's error body: `{code, message, details, hint}` with its codes and statuses, so clients such
 * as postgrest-js read our errors as they read PostgREST's. Nothing here ever carries SQL text, a stack
 * or the statement: PostgreSQL errors are reduced to their code, message, detail and hint.
 */
export interface PgrstBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export class PgrstError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details: string | null = null,
    public readonly hint: string | null = null,
  ) {
    super(message);
    this.name = 'PgrstError';
  }

  toBody(): PgrstBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

/** PGRST100: the query string does not parse. */
export function parseError(what: string, input: string, details: string): PgrstError {
  return new PgrstError(400, 'PGRST100', `failed to parse ${what} (${truncate(input)})`, details);
}

export const tableNotFound = (name: string) =>
  new PgrstError(404, 'PGRST205', `Could not find the table 'public.${truncate(name)}' in the schema cache`);

export const columnNotFound = (relation: string, column: string) =>
  new PgrstError(400, 'PGRST204', `Could not find the '${truncate(column)}' column of '${relation}' in the schema cache`);

/** A read of a column that does not exist (or that the registry does not expose: the same answer, so hidden columns stay hidden). */
export const undefinedColumn = (relation: string, column: string) =>
  new PgrstError(400, '42703', `column ${relation}.${truncate(column)} does not exist`);

export const noRelationship = (parent: string, child: string, hint?: string) =>
  new PgrstError(
    400,
    'PGRST200',
    `Could not find a relationship between '${parent}' and '${truncate(child)}' in the schema cache`,
    `Searched for a foreign key relationship between '${parent}' and '${truncate(child)}'${hint === undefined ? '' : ` using the hint '${truncate(hint)}'`} in the schema 'public', but no matches were found.`,
  );

export const functionNotFound = (name: string, args: string[]) => {
  const list = args.map(truncate).join(', ');
  return new PgrstError(
    404,
    'PGRST202',
    `Could not find the function public.${truncate(name)}${args.length === 0 ? ' without parameters' : `(${list})`} in the schema cache`,
    `Searched for the function public.${truncate(name)}${args.length === 0 ? ' without parameters' : ` with parameter${args.length > 1 ? 's' : ''} ${list}`}, but no matches were found in the schema cache.`,
  );
};

export const singularityError = (rows: number) =>
  new PgrstError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`);

export const invalidBody = (message: string) => new PgrstError(400, 'PGRST102', message);

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** PostgREST's mapping of SQLSTATE classes to HTTP statuses (docs: references/errors). */
export function statusForSqlState(code: string): number {
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '42883':
    case '42P01':
      return 404;
    case '42501':
      return 403;
    case '53400':
      return 500;
    case 'P0001':
      return 400;
    default:
      break;
  }
  const cls = code.slice(0, 2);
  if (cls === '08' || cls === '53') return 503;
  if (['09', '25', '2D', '38', '39', '3B', '40', '54', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(cls)) return 500;
  if (cls === '0L' || cls === '0P' || cls === '28') return 403;
  return 400;
}

/** SQLSTATE classes whose PostgreSQL message describes the data (bad value, constraint), never the statement. */
const DATA_CLASSES = new Set(['22', '23', 'P0']);
/** Class 42 codes a request can cause by itself (wrong operator for a type); their messages name types, not SQL. */
const SAFE_42 = new Set(['42804', '42883', '42704', '42846', '42725', '42P10', '42P18']);

/**
 * Turns anything a query threw into a PostgREST body. Unknown errors (and SQL syntax errors, which can
 * only be our own bug) become a generic 500 and are logged by the caller with their cause.
 */
export function fromDatabaseError(error: unknown): { error: PgrstError; internal: boolean } {
  if (error instanceof PgrstError) return { error, internal: false };
  if (error instanceof pg.DatabaseError && typeof error.code === 'string') {
    const code = error.code;
    const status = statusForSqlState(code);
    // A 42601 without a position is about a value (`syntax error in tsquery`); with one it is our SQL.
    const valueSyntax = code === '42601' && error.position === undefined;
    const safe = DATA_CLASSES.has(code.slice(0, 2)) || SAFE_42.has(code) || code === '25006' || valueSyntax;
    if (safe && status < 500) {
      // "Failing row contains (…)" lists every column of the row, hidden ones (and their defaults) included.
      const detail = error.detail === undefined || error.detail.startsWith('Failing row contains') ? null : error.detail;
      return { error: new PgrstError(status, code, error.message, detail, error.hint ?? null), internal: false };
    }
    if (code === '57014') {
      return { error: new PgrstError(400, code, 'canceling statement due to statement timeout', null, 'The query ran too long; add filters or a limit, or embed less.'), internal: false };
    }
    if (status === 503) return { error: new PgrstError(503, code, 'the database is unavailable; try again'), internal: true };
    return { error: new PgrstError(500, code, 'the query failed; the server log has the details'), internal: true };
  }
  return { error: new PgrstError(500, 'PGRSTX00', 'internal error; the server log has the details'), internal: true };
}

/** A platform refusal (an AppError 403, such as a missing capability) in PostgREST's shape: 42501. */
export async function asPgrstRefusal<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && error.name === 'AppError' && Reflect.get(error, 'code') === 'forbidden') {
      const details: unknown = Reflect.get(error, 'details');
      throw new PgrstError(403, '42501', error.message, details === undefined ? null : JSON.stringify(details), 'An admin grants a capability in Settings → Permissions (docs/SECURITY.md).');
    }
    throw error;
  }
}
