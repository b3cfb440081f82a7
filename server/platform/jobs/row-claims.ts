import type pg from 'pg';
import { inTransaction, interval, type Queryable } from './db';
import { parseSchedule, ScheduleError } from './schedule';
import type { ScheduledTable } from './scheduled-table';

/** How long a row whose schedule does not parse waits before it is tried (and reported) again. */
export const INVALID_SCHEDULE_RETRY_MILLIS = 60 * 60 * 1000;

export interface ClaimedRow {
  id: string;
  name: string | undefined;
  schedule: string;
  /** The slot this claim is for: the row's next_run_at when it was claimed. */
  scheduledFor: Date;
  /** Set when the schedule does not parse; the row is leased and moved on, and the run reports it. */
  invalidSchedule: ScheduleError | undefined;
  /** The organization the row belongs to (hosted mode, docs/HOSTED.md "Row-level security"): its run works in that organization only. */
  organizationId: string | undefined;
}

export interface ClaimOptions {
  owner: string;
  limit: number;
  leaseMillis: number;
  /** Only these ids (for example: only the system jobs this process has code for). */
  onlyIds?: readonly string[];
  /** Spread the rows over the live instances (see `sharedRows`); without it, whoever asks first claims. */
  share?: Sharing;
}

/**
 * Rows shared out over the live instances (job_instances not expired): ordered by id, the i-th active row
 * is the row of the instance whose rank, among the live ids in order, is i mod (live instances). Each
 * instance claims its own rows as they fall due, and any instance claims a row `graceMillis` past its due
 * time (its instance is stopping, dead or slow): the rows spread evenly (to one row) however the
 * instances' timers race, and a row whose instance went away still runs. An instance not (yet) in
 * job_instances takes every row as its own. Claims stay exclusive as without sharing: this only decides
 * who asks first.
 */
export interface Sharing {
  graceMillis: number;
}

/**
 * The CTE `mine(row_id)`: the ids of the active rows that are `$owner`'s (parameter number `ownerParam`).
 * Materialized once per statement; ranking every active row costs a scan of them (about 1 ms per 10,000).
 */
function mineCte(table: ScheduledTable, ownerParam: number): string {
  const t = table.sql;
  const active = t.active.length > 0 ? `WHERE ${t.active.join(' AND ')}` : '';
  return `WITH me AS MATERIALIZED (
            SELECT rank, n FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS rank, (count(*) OVER ())::int AS n
                                   FROM job_instances WHERE expires_at > now()) live
             WHERE id = $${ownerParam}),
          mine AS MATERIALIZED (
            SELECT row_id FROM (SELECT ${t.id} AS row_id, (row_number() OVER (ORDER BY ${t.id}) - 1)::int AS pos FROM ${t.table} ${active}) ranked
             WHERE NOT EXISTS (SELECT 1 FROM me) OR pos % (SELECT n FROM me) = (SELECT rank FROM me))`;
}

interface DueRow {
  id: string;
  name: string | null;
  schedule: string;
  next_run_at: Date;
  db_now: Date;
  organization_id: string | null;
}

/**
 * Claims up to `limit` due rows. In one transaction the rows are locked with SKIP LOCKED (so concurrent
 * claimers take disjoint rows), leased to `owner`, and moved to their next slot. Because the next slot is
 * written together with the lease, a claimed slot is run at most once even if its runner dies; and the
 * lease keeps a row from running twice at the same time when a run outlasts its interval.
 */
export async function claimDueRows(pool: pg.Pool, table: ScheduledTable, options: ClaimOptions): Promise<ClaimedRow[]> {
  const t = table.sql;
  const values: unknown[] = [options.limit];
  const conditions = [`${t.nextRunAt} <= now()`, `(${t.leaseUntil} IS NULL OR ${t.leaseUntil} < now())`, ...t.active];
  if (options.onlyIds) {
    values.push(options.onlyIds);
    conditions.push(`${t.id} = ANY($${values.length})`);
  }
  let prefix = '';
  if (options.share) {
    values.push(options.owner);
    prefix = mineCte(table, values.length);
    values.push(interval(options.share.graceMillis));
    conditions.push(`(${t.table}.${t.id} IN (SELECT row_id FROM mine) OR ${t.nextRunAt} <= now() - $${values.length}::interval)`);
  }
  const select = `${prefix}
                  SELECT ${t.id}::text AS id, ${t.name ? `${t.name}::text` : 'NULL::text'} AS name, ${t.schedule} AS schedule,
                         ${t.nextRunAt} AS next_run_at, now() AS db_now,
                         to_jsonb(${t.table}.*) ->> 'organization_id' AS organization_id
                    FROM ${t.table}
                   WHERE ${conditions.join(' AND ')}
                   ORDER BY ${t.nextRunAt}
                   LIMIT $1
                   FOR UPDATE SKIP LOCKED`;
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<DueRow>(select, values);
    const claimed: ClaimedRow[] = [];
    for (const row of rows) {
      let next: Date;
      let invalidSchedule: ScheduleError | undefined;
      try {
        next = parseSchedule(row.schedule).next(row.next_run_at, row.db_now);
      } catch (error) {
        if (!(error instanceof ScheduleError)) throw error;
        invalidSchedule = error;
        next = new Date(row.db_now.getTime() + INVALID_SCHEDULE_RETRY_MILLIS);
      }
      await client.query(
        `UPDATE ${t.table} SET ${t.nextRunAt} = $2, ${t.leaseOwner} = $3, ${t.leaseUntil} = now() + $4::interval WHERE ${t.id} = $1`,
        [row.id, next, options.owner, interval(options.leaseMillis)],
      );
      claimed.push({ id: row.id, name: row.name ?? undefined, schedule: row.schedule, scheduledFor: row.next_run_at, invalidSchedule, organizationId: row.organization_id ?? undefined });
    }
    return claimed;
  });
}

/** Ends a claim: records the slot as the last run and drops the lease, if this owner still holds it. */
export async function releaseRow(db: Queryable, table: ScheduledTable, id: string, owner: string, slot: Date | undefined): Promise<boolean> {
  const t = table.sql;
  const setLast = t.lastRunAt && slot ? `, ${t.lastRunAt} = $3` : '';
  const values: unknown[] = [id, owner];
  if (setLast) values.push(slot);
  const { rowCount } = await db.query(
    `UPDATE ${t.table} SET ${t.leaseOwner} = NULL, ${t.leaseUntil} = NULL${setLast} WHERE ${t.id} = $1 AND ${t.leaseOwner} = $2`,
    values,
  );
  return rowCount === 1;
}

/** Heartbeat: extends the leases `owner` holds on `ids`; returns the ids whose lease it still holds. */
export async function renewRows(db: Queryable, table: ScheduledTable, ids: readonly string[], owner: string, leaseMillis: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const t = table.sql;
  const { rows } = await db.query<{ id: string }>(
    `UPDATE ${t.table} SET ${t.leaseUntil} = now() + $3::interval
      WHERE ${t.id} = ANY($1) AND ${t.leaseOwner} = $2
      RETURNING ${t.id}::text AS id`,
    [ids, owner, interval(leaseMillis)],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Milliseconds until a row of the table could become claimable, so a worker sleeps until then: the first
 * due time among unleased rows, or the first lease that could expire (its holder may have died). Rows
 * never due (next run 'infinity', as unscheduled canaries have) are left out. With `share`, another
 * instance's row counts from its due time plus the grace, when this instance may take it.
 */
export async function millisUntilClaimable(db: Queryable, table: ScheduledTable, onlyIds?: readonly string[], share?: Sharing & { owner: string }): Promise<number | undefined> {
  const t = table.sql;
  const values: unknown[] = [];
  const conditions = [...t.active];
  if (onlyIds) {
    values.push(onlyIds);
    conditions.push(`${t.id} = ANY($1)`);
  }
  const where = (extra: string) => [...conditions, extra].join(' AND ');
  const free = `(${t.leaseUntil} IS NULL OR ${t.leaseUntil} < now()) AND isfinite(${t.nextRunAt})`;
  let prefix = '';
  let due = `(SELECT min(${t.nextRunAt}) FROM ${t.table} WHERE ${where(free)})`;
  if (share) {
    values.push(share.owner);
    prefix = mineCte(table, values.length);
    values.push(interval(share.graceMillis));
    due = `(SELECT min(${t.nextRunAt}) FROM ${t.table} WHERE ${where(`${free} AND ${t.id} IN (SELECT row_id FROM mine)`)}),
           ${due} + $${values.length}::interval`;
  }
  // Measured on the database clock, which every instance shares, not on this machine's.
  const { rows } = await db.query<{ ms: number | null }>(
    `${prefix}
     SELECT (extract(epoch FROM LEAST(
       ${due},
       (SELECT min(${t.leaseUntil}) FROM ${t.table} WHERE ${where(`${t.leaseUntil} >= now()`)})
     ) - now()) * 1000)::float8 AS ms`,
    values,
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Number(ms);
}
