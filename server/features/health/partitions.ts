import type pg from 'pg';
import type { Queryable } from '../../platform/jobs/db';
import { messageOf } from '../../platform/errors';

/**
 * check_statuses is partitioned by UTC day (migration 0043, docs/OPERATIONS.md "Check history partitions"):
 * check_history.check_statuses_YYYYMMDD, plus check_history.check_statuses_default for a result of a day
 * without its partition. Partitions are made this many days ahead of today, at start and every day.
 */
export const PARTITION_DAYS_AHEAD = 7;

/**
 * How long making or detaching a partition waits for its lock (the default partition's, and check_statuses'
 * own to detach) before giving up until the next run: waiting longer would queue every reader behind it.
 */
export const PARTITION_LOCK_TIMEOUT_MS = 5_000;

export interface HistoryPartition {
  /** Table name in the schema check_history. */
  name: string;
  /** The day's bounds; both null for the default partition. */
  from: Date | null;
  to: Date | null;
  /** Heap, indexes and TOAST. */
  bytes: number;
  /** PostgreSQL's estimate (pg_class.reltuples), null until the partition was first vacuumed or analysed. */
  rowsEstimate: number | null;
}

/** Every partition of check_statuses, oldest first, the default one last. */
export async function listPartitions(db: Queryable): Promise<HistoryPartition[]> {
  const { rows } = await db.query<{ name: string; from: Date | null; to: Date | null; bytes: string; reltuples: number }>(
    `SELECT c.relname AS name,
            substring(b.bound FROM 'FROM \\(''([^'']+)''\\)')::timestamptz AS "from",
            substring(b.bound FROM 'TO \\(''([^'']+)''\\)')::timestamptz AS "to",
            pg_total_relation_size(c.oid)::text AS bytes, c.reltuples
       FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       CROSS JOIN LATERAL (SELECT pg_get_expr(c.relpartbound, c.oid) AS bound) b
      WHERE i.inhparent = 'public.check_statuses'::regclass
      ORDER BY 2 NULLS LAST`,
  );
  return rows.map((row) => ({
    name: row.name,
    from: row.from,
    to: row.to,
    bytes: Number(row.bytes),
    rowsEstimate: row.reltuples >= 0 ? Math.round(row.reltuples) : null,
  }));
}

/** One statement in its own transaction with a lock timeout. */
async function withLockTimeout<T>(pool: pg.Pool, sql: string, values: unknown[], timeoutMs: number): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.round(timeoutMs))}ms'`);
    const result = await client.query<T & pg.QueryResultRow>(sql, values);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Makes the partitions of today and the next PARTITION_DAYS_AHEAD days that are missing, and of every day
 * from `since` on that has results waiting in the default partition (they move into it); answers the names
 * made.
 */
export async function ensurePartitions(pool: pg.Pool, options: { since?: Date; daysAhead?: number; lockTimeoutMs?: number } = {}): Promise<string[]> {
  const { rows } = await withLockTimeout<{ made: string[] }>(
    pool,
    'SELECT check_statuses_ensure_partitions($1, ($2::timestamptz AT TIME ZONE \'UTC\')::date) AS made',
    [options.daysAhead ?? PARTITION_DAYS_AHEAD, options.since ?? null],
    options.lockTimeoutMs ?? PARTITION_LOCK_TIMEOUT_MS,
  );
  return rows[0]?.made ?? [];
}

export interface DroppedPartition {
  name: string;
  bytes: number;
  rowsEstimate: number | null;
}

const quoted = (name: string) => `check_history."${name.replace(/"/g, '""')}"`;

/**
 * Day tables of check_history that are no longer partitions: detached by a retention run whose DROP did not
 * happen (the server stopped in between). Their day is read from their name.
 */
async function detachedDays(db: Queryable): Promise<HistoryPartition[]> {
  const { rows } = await db.query<{ name: string; from: Date; to: Date; bytes: string; reltuples: number }>(
    `SELECT c.relname AS name, d::timestamp AT TIME ZONE 'UTC' AS "from", (d + 1)::timestamp AT TIME ZONE 'UTC' AS "to",
            pg_total_relation_size(c.oid)::text AS bytes, c.reltuples
       FROM pg_class c
       CROSS JOIN LATERAL (SELECT to_date(substring(c.relname FROM '([0-9]{8})$'), 'YYYYMMDD') AS d) day
      WHERE c.relnamespace = 'check_history'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
        AND c.relname ~ '^check_statuses_[0-9]{8}$'
      ORDER BY 2`,
  );
  return rows.map((row) => ({ name: row.name, from: row.from, to: row.to, bytes: Number(row.bytes), rowsEstimate: row.reltuples >= 0 ? Math.round(row.reltuples) : null }));
}

/**
 * Drops every day partition whose whole day ends at or before `before`, without holding what others read
 * while the file system frees its space:
 * 1. it is detached from check_statuses (a catalog change: check_statuses is locked for milliseconds);
 * 2. the detached table's foreign key to checks is dropped on its own (detaching gave it triggers on
 *    checks, and removing a trigger locks checks: for milliseconds here, not for the whole drop);
 * 3. the table is dropped, locking nothing but itself.
 * Each step is a short transaction waiting at most `lockTimeoutMs` for its locks; a day whose lock is not
 * granted in time is left for the next run and named in `skipped`. A day detached but not dropped (a stop
 * in between) is finished by the next run. `lockedMs` is the time spent in steps 1 and 2.
 */
export async function dropPartitionsBefore(
  pool: pg.Pool,
  before: Date,
  options: { lockTimeoutMs?: number; signal?: AbortSignal } = {},
): Promise<{ dropped: DroppedPartition[]; skipped: Array<{ name: string; reason: string }>; lockedMs: number }> {
  const dropped: DroppedPartition[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  const timeout = options.lockTimeoutMs ?? PARTITION_LOCK_TIMEOUT_MS;
  let lockedMs = 0;
  const locking = async (sql: string) => {
    const started = performance.now();
    try {
      await withLockTimeout(pool, sql, [], timeout);
    } finally {
      lockedMs += performance.now() - started;
    }
  };
  const due = (partition: HistoryPartition) => partition.to !== null && partition.to.getTime() <= before.getTime();
  const days = [
    ...(await detachedDays(pool)).filter(due).map((partition) => ({ partition, attached: false })),
    ...(await listPartitions(pool)).filter(due).map((partition) => ({ partition, attached: true })),
  ];
  for (const { partition, attached } of days) {
    if (options.signal?.aborted) break;
    const table = quoted(partition.name);
    try {
      // Names come from the catalog; quoted all the same.
      if (attached) await locking(`ALTER TABLE public.check_statuses DETACH PARTITION ${table}`);
      const { rows: keys } = await pool.query<{ conname: string }>(
        `SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f' ORDER BY conname`,
        [`check_history.${partition.name}`],
      );
      for (const key of keys) await locking(`ALTER TABLE ${table} DROP CONSTRAINT "${key.conname.replace(/"/g, '""')}"`);
      await withLockTimeout(pool, `DROP TABLE ${table}`, [], timeout);
      dropped.push({ name: partition.name, bytes: partition.bytes, rowsEstimate: partition.rowsEstimate });
    } catch (error) {
      skipped.push({ name: partition.name, reason: messageOf(error) });
    }
  }
  return { dropped, skipped, lockedMs };
}
