import type pg from 'pg';
import { planRead, SNAPSHOT_XMIN, type ReadMark } from './incremental';
import { EMPTY_HISTOGRAM, histogramOfDurations, parseHistogram, type Histogram, type HistogramSum } from './histogram';

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

export const EMPTY_TOTALS: Totals = { passed: 0, failed: 0, histogram: EMPTY_HISTOGRAM };

/** Histograms travel as the text of their arrays: parsed here far faster than by the driver. */
const HISTOGRAM_COLUMNS = 'hist_buckets::text AS hb, hist_counts::text AS hc';

interface TotalsRow {
  check_id: string;
  passed: string;
  failed: string;
  hb: string;
  hc: string;
}

function totalsOf(row: TotalsRow): Totals {
  return { passed: Number(row.passed), failed: Number(row.failed), histogram: parseHistogram(row.hb, row.hc) };
}

function read(rows: TotalsRow[], into = new Map<string, Totals>()): Map<string, Totals> {
  for (const row of rows) into.set(row.check_id, totalsOf(row));
  return into;
}

/**
 * Totals up to now, for every check (a summary's end). Also what the in-memory totals at past instants
 * depend on: the database clock and the count of late results.
 */
export interface Now {
  totals: ReadonlyMap<string, Totals>;
  /** When each check last reported (ms since epoch). */
  last: ReadonlyMap<string, number>;
  /** The database's clock when they were read (ms since epoch). */
  at: number;
  /** check_rollup_epoch.late_results when they were read. */
  lateResults: string;
}

/**
 * Results recorded within this long of their time never change the totals of an instant this far back, so
 * those totals are kept in memory (until a late result, counted by the database, says otherwise).
 */
const SETTLED_MS = 2 * 60_000;
/** Instants whose totals are kept (the starts of the ranges being looked at). */
const INSTANTS_KEPT = 8;

interface NowState extends ReadMark {
  totals: Map<string, Totals>;
  last: Map<string, number>;
  at: number;
  lateResults: string;
}

interface InstantTotals {
  lateResults: string;
  totals: Map<string, Totals>;
}

/** What one database's summaries keep in memory between requests. */
interface TotalsCache {
  now: NowState | undefined;
  reading: Promise<NowState> | undefined;
  instants: Map<string, InstantTotals>;
}

const caches = new WeakMap<pg.Pool, TotalsCache>();

function cacheOf(pool: pg.Pool): TotalsCache {
  let cache = caches.get(pool);
  if (!cache) caches.set(pool, (cache = { now: undefined, reading: undefined, instants: new Map() }));
  return cache;
}

interface NowRow extends Partial<TotalsRow> {
  snapshot_xmin: string;
  late_results: string | null;
  db_now: Date;
  last_time: Date | null;
}

/**
 * Reads check_totals: whole, or only the rows written since the previous read (incremental.ts). The
 * snapshot, the clock and the late-result count come from the same statement as the rows.
 */
async function readNow(pool: pg.Pool, previous: NowState | undefined): Promise<NowState> {
  const plan = planRead(previous);
  const { rows } = await pool.query<NowRow>(
    `WITH s AS (
       SELECT ${SNAPSHOT_XMIN} AS snapshot_xmin, (SELECT late_results::text FROM check_rollup_epoch) AS late_results, now() AS db_now)
     SELECT s.snapshot_xmin, s.late_results, s.db_now, t.check_id, t.passed, t.failed, ${HISTOGRAM_COLUMNS.replaceAll('hist_', 't.hist_')}, t.last_time
       FROM s LEFT JOIN check_totals t ON ${plan.written('t')}`,
    plan.params,
  );
  const head = rows[0];
  if (!head) throw new Error('check_totals: the snapshot row is missing');
  const totals = plan.base?.totals ?? new Map<string, Totals>();
  const last = plan.base?.last ?? new Map<string, number>();
  for (const row of rows) {
    if (!row.check_id || !row.last_time) continue;
    totals.set(row.check_id, totalsOf({ check_id: row.check_id, passed: row.passed ?? '0', failed: row.failed ?? '0', hb: row.hb ?? '', hc: row.hc ?? '' }));
    last.set(row.check_id, row.last_time.getTime());
  }
  return {
    totals,
    last,
    at: head.db_now.getTime(),
    lateResults: head.late_results ?? '0',
    ...plan.mark(head.snapshot_xmin),
  };
}

/** Totals up to this moment of every check, from check_totals (kept in memory, refreshed by its changes). */
export async function totalsNow(pool: pg.Pool): Promise<Now> {
  const cache = cacheOf(pool);
  // Requests at the same moment share one read.
  if (!cache.reading) {
    cache.reading = readNow(pool, cache.now).finally(() => {
      cache.reading = undefined;
    });
  }
  const state = await cache.reading;
  cache.now = state;
  if (cache.instants.size > 0 && [...cache.instants.values()].some((entry) => entry.lateResults !== state.lateResults)) cache.instants.clear();
  return state;
}

/**
 * Every check's totals at the start of bucket `start` (the cumulative row of the latest earlier bucket).
 * Most checks ran in the bucket just before: one indexed scan of that bucket finds them; the rest are
 * looked up in a wider window, then from check_totals (a check silent since before `start` has the same
 * totals now), and only the remaining few one by one. Checks with no totals then get none.
 */
async function totalsBefore(pool: pg.Pool, tier: Tier, ids: readonly string[], start: Date, now: Now): Promise<Map<string, Totals>> {
  const { table, ms, window } = TIERS[tier];
  const found = read(
    (await pool.query<TotalsRow>(`SELECT check_id, passed, failed, ${HISTOGRAM_COLUMNS} FROM ${table} WHERE bucket = $2 AND check_id = ANY($1::uuid[])`, [ids, new Date(start.getTime() - ms)]))
      .rows,
  );
  let missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    read(
      (
        await pool.query<TotalsRow>(
          `SELECT DISTINCT ON (check_id) check_id, passed, failed, ${HISTOGRAM_COLUMNS} FROM ${table}
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
    if (last < start.getTime()) found.set(id, now.totals.get(id) ?? EMPTY_TOTALS);
    else older.push(id);
  }
  if (older.length > 0) {
    read(
      (
        await pool.query<TotalsRow>(
          `SELECT c.id AS check_id, r.passed, r.failed, r.hb, r.hc FROM unnest($1::uuid[]) AS c(id)
             JOIN LATERAL (SELECT passed, failed, ${HISTOGRAM_COLUMNS} FROM ${table} WHERE check_id = c.id AND bucket < $2 ORDER BY bucket DESC LIMIT 1) r ON true`,
          [older, start],
        )
      ).rows,
      found,
    );
  }
  return found;
}

/**
 * totalsBefore, kept in memory for instants far enough back that no result can still change them (a late
 * result empties the memory). Only the checks not asked about before are read.
 */
async function settledTotalsBefore(pool: pg.Pool, tier: Tier, ids: readonly string[], start: Date, now: Now): Promise<ReadonlyMap<string, Totals>> {
  if (start.getTime() > now.at - SETTLED_MS) return totalsBefore(pool, tier, ids, start, now);
  const cache = cacheOf(pool);
  const key = `${tier}:${start.getTime()}`;
  let entry = cache.instants.get(key);
  if (!entry || entry.lateResults !== now.lateResults) entry = { lateResults: now.lateResults, totals: new Map() };
  // Most recently used last; the oldest goes when too many are kept.
  cache.instants.delete(key);
  cache.instants.set(key, entry);
  for (const old of cache.instants.keys()) {
    if (cache.instants.size <= INSTANTS_KEPT) break;
    cache.instants.delete(old);
  }
  const known = entry.totals;
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) {
    const read = await totalsBefore(pool, tier, missing, start, now);
    for (const id of missing) known.set(id, read.get(id) ?? EMPTY_TOTALS);
  }
  return known;
}

/** From this many checks on, raw results at a range's edge are read by time alone. */
const RAW_SCAN_FROM = 1000;

/**
 * Results of every check in [from, to), from raw rows (only ever a short span: a range's edge). One
 * grouping in the database, the durations' histogram here: several times faster than two groupings there.
 */
async function rawBetween(pool: pg.Pool, ids: readonly string[], from: Date, to: Date): Promise<Map<string, Totals>> {
  const out = new Map<string, Totals>();
  if (to.getTime() <= from.getTime()) return out;
  // Few checks: their rows through the primary key. Many: every row of those minutes, which lie together
  // (results arrive in time order; the BRIN index finds their pages), is read faster than thousands of
  // index probes; rows of other checks are counted too and simply never looked up.
  const many = ids.length >= RAW_SCAN_FROM;
  const { rows } = await pool.query<{ check_id: string; passed: string; failed: string; durations: string }>(
    `SELECT check_id, count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed, array_agg(duration)::text AS durations
       FROM check_statuses WHERE time >= $1 AND time < $2 ${many ? '' : 'AND check_id = ANY($3::uuid[])'} GROUP BY check_id`,
    many ? [from, to] : [from, to, ids],
  );
  for (const row of rows) out.set(row.check_id, { passed: Number(row.passed), failed: Number(row.failed), histogram: histogramOfDurations(row.durations) });
  return out;
}

/**
 * A sum of totals with signs, per check: the totals at an instant (a rollup row plus or minus the raw
 * results of an edge) or of a range (the end's terms minus the start's). Kept as terms, not added up, so
 * that ten thousand checks cost no intermediate histograms: `sumInto` adds them up one check at a time.
 */
export type Terms = ReadonlyArray<{ sign: 1 | -1; totals: ReadonlyMap<string, Totals> }>;

export function negate(terms: Terms): Terms {
  return terms.map((term) => ({ sign: term.sign === 1 ? -1 : 1, totals: term.totals }));
}

/** One check's sum: its counts, and its histogram in `sum` (cleared first). */
export function sumInto(terms: Terms, id: string, sum: HistogramSum): { passed: number; failed: number } {
  sum.clear();
  let passed = 0;
  let failed = 0;
  for (const term of terms) {
    const totals = term.totals.get(id);
    if (!totals) continue;
    passed += term.sign * totals.passed;
    failed += term.sign * totals.failed;
    sum.add(totals.histogram, term.sign);
  }
  return { passed, failed };
}

/**
 * Every check's totals at instant `at`. With the 10-minute tier it is exact: the totals at the nearer end
 * of at's 10-minute bucket, plus or minus the raw results between that end and `at` (at most 5 minutes of
 * them). With the hourly and daily tiers it is the totals at the start of at's bucket (ranges count whole
 * hours or days).
 */
export async function totalsAt(pool: pg.Pool, tier: Tier, ids: readonly string[], at: Date, now: Now): Promise<Terms> {
  const start = bucketStart(at, tier);
  if (tier !== '10m' || at.getTime() === start.getTime()) return [{ sign: 1, totals: await settledTotalsBefore(pool, tier, ids, start, now) }];
  const end = new Date(start.getTime() + TIERS[tier].ms);
  const nearerEnd = end.getTime() - at.getTime() < at.getTime() - start.getTime() && end.getTime() <= now.at - SETTLED_MS;
  const [base, edge] = await Promise.all([
    settledTotalsBefore(pool, tier, ids, nearerEnd ? end : start, now),
    nearerEnd ? rawBetween(pool, ids, at, end) : rawBetween(pool, ids, start, at),
  ]);
  return [
    { sign: 1, totals: base },
    { sign: nearerEnd ? -1 : 1, totals: edge },
  ];
}
