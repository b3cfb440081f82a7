import type pg from 'pg';
import { subtract, toHistogram, type Histogram } from './histogram';

/** Running totals of one check at an instant: what the cumulative rollups and check_totals hold. */
export interface Totals {
  passed: number;
  failed: number;
  histogram: Histogram;
}

export type Tier = '10m' | 'hourly' | 'daily';

export const TIERS: Record<Tier, { table: string; ms: number; window: number }> = {
  '10m': { table: 'check_rollups_10m', ms: 600_000, window: 12 },
  hourly: { table: 'check_rollups_hourly', ms: 3_600_000, window: 24 },
  daily: { table: 'check_rollups_daily', ms: 86_400_000, window: 30 },
};

/** The start of the tier's bucket containing `at` (10-minute, hourly and daily buckets are UTC-aligned). */
export function bucketStart(at: Date, tier: Tier): Date {
  const ms = TIERS[tier].ms;
  return new Date(Math.floor(at.getTime() / ms) * ms);
}

const EMPTY: Totals = { passed: 0, failed: 0, histogram: new Map() };

export function minus(a: Totals | undefined, b: Totals | undefined): Totals {
  return { passed: (a?.passed ?? 0) - (b?.passed ?? 0), failed: (a?.failed ?? 0) - (b?.failed ?? 0), histogram: subtract(a?.histogram ?? new Map(), b?.histogram ?? new Map()) };
}

function plus(a: Totals | undefined, b: Totals | undefined): Totals {
  const histogram = new Map(a?.histogram ?? []);
  for (const [bucket, count] of b?.histogram ?? []) histogram.set(bucket, (histogram.get(bucket) ?? 0) + count);
  return { passed: (a?.passed ?? 0) + (b?.passed ?? 0), failed: (a?.failed ?? 0) + (b?.failed ?? 0), histogram };
}

interface TotalsRow {
  check_id: string;
  passed: string;
  failed: string;
  hist_buckets: number[];
  hist_counts: string[];
}

function read(rows: TotalsRow[], into = new Map<string, Totals>()): Map<string, Totals> {
  for (const row of rows) into.set(row.check_id, { passed: Number(row.passed), failed: Number(row.failed), histogram: toHistogram(row.hist_buckets, row.hist_counts) });
  return into;
}

export interface Now {
  totals: Map<string, Totals>;
  /** When each check last reported (ms since epoch). */
  last: Map<string, number>;
}

/** Totals up to this moment, from check_totals: one row per check. */
export async function totalsNow(pool: pg.Pool, ids: readonly string[]): Promise<Now> {
  const { rows } = await pool.query<TotalsRow & { last_time: Date }>(
    'SELECT check_id, passed, failed, hist_buckets, hist_counts, last_time FROM check_totals WHERE check_id = ANY($1::uuid[])',
    [ids],
  );
  return { totals: read(rows), last: new Map(rows.map((row) => [row.check_id, row.last_time.getTime()])) };
}

/**
 * Every check's totals at the start of bucket `start` (the cumulative row of the latest earlier bucket).
 * Most checks ran in the bucket just before: one indexed scan of that bucket finds them; the rest are
 * looked up in a wider window, then from check_totals (a check silent since before `start` has the same
 * totals now), and only the remaining few one by one.
 */
async function totalsBefore(pool: pg.Pool, tier: Tier, ids: readonly string[], start: Date, now: Now): Promise<Map<string, Totals>> {
  const { table, ms, window } = TIERS[tier];
  const found = read(
    (await pool.query<TotalsRow>(`SELECT check_id, passed, failed, hist_buckets, hist_counts FROM ${table} WHERE bucket = $2 AND check_id = ANY($1::uuid[])`, [ids, new Date(start.getTime() - ms)])).rows,
  );
  let missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    read(
      (
        await pool.query<TotalsRow>(
          `SELECT DISTINCT ON (check_id) check_id, passed, failed, hist_buckets, hist_counts FROM ${table}
            WHERE bucket >= $2 AND bucket < $3 AND check_id = ANY($1::uuid[]) ORDER BY check_id, bucket DESC`,
          [missing, new Date(start.getTime() - window * ms), new Date(start.getTime() - ms)],
        )
      ).rows,
      found,
    );
    missing = missing.filter((id) => !found.has(id));
  }
  const older: string[] = [];
  for (const id of missing) {
    const last = now.last.get(id);
    if (last === undefined) continue; // never ran: nothing before
    if (last < start.getTime()) found.set(id, now.totals.get(id) ?? EMPTY);
    else older.push(id);
  }
  if (older.length > 0) {
    read(
      (
        await pool.query<TotalsRow>(
          `SELECT c.id AS check_id, r.passed, r.failed, r.hist_buckets, r.hist_counts FROM unnest($1::uuid[]) AS c(id)
             JOIN LATERAL (SELECT passed, failed, hist_buckets, hist_counts FROM ${table} WHERE check_id = c.id AND bucket < $2 ORDER BY bucket DESC LIMIT 1) r ON true`,
          [older, start],
        )
      ).rows,
      found,
    );
  }
  return found;
}

/** Results of every check in [from, to), from raw rows (only ever a short span: a range's edge). */
async function rawBetween(pool: pg.Pool, ids: readonly string[], from: Date, to: Date): Promise<Map<string, Totals>> {
  if (to.getTime() <= from.getTime()) return new Map();
  const { rows } = await pool.query<{ check_id: string; passed: string; failed: string; buckets: number[]; counts: string[] }>(
    `WITH b AS (
       SELECT check_id, latency_bucket(duration) AS bucket, count(*) AS n, count(*) FILTER (WHERE status) AS passed
         FROM check_statuses WHERE time >= $2 AND time < $3 AND check_id = ANY($1::uuid[]) GROUP BY check_id, bucket)
     SELECT check_id, sum(passed) AS passed, sum(n) - sum(passed) AS failed, array_agg(bucket) AS buckets, array_agg(n) AS counts FROM b GROUP BY check_id`,
    [ids, from, to],
  );
  return new Map(rows.map((row) => [row.check_id, { passed: Number(row.passed), failed: Number(row.failed), histogram: toHistogram(row.buckets, row.counts) }]));
}

/**
 * Every check's totals at instant `at`. With the 10-minute tier it is exact: the totals before at's
 * 10-minute bucket plus the raw results between the bucket's start and `at`. With the hourly and daily
 * tiers it is the totals at the start of at's bucket (ranges count whole hours or days).
 */
export async function totalsAt(pool: pg.Pool, tier: Tier, ids: readonly string[], at: Date, now: Now): Promise<Map<string, Totals>> {
  const start = bucketStart(at, tier);
  const before = await totalsBefore(pool, tier, ids, start, now);
  if (tier !== '10m') return before;
  const edge = await rawBetween(pool, ids, start, at);
  const out = new Map<string, Totals>();
  for (const id of new Set([...before.keys(), ...edge.keys()])) out.set(id, plus(before.get(id), edge.get(id)));
  return out;
}
