import type pg from 'pg';

/** Anything that runs a parameterised query: a pool, a pooled client inside a transaction, a client. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** Runs `work` in one transaction on one pooled connection; rolls back and rethrows on error. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Milliseconds as a PostgreSQL interval parameter (`$n::interval`). */
export function interval(millis: number): string {
  return `${Math.max(0, Math.round(millis))} milliseconds`;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
}
