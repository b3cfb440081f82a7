import type pg from 'pg';
import { RUNNER_NAME, upstreamLatency, type UpstreamLatency } from './canary-shape';
import { checksSummary, type StatsSource } from './summary';

/** At most this many points per series (spec §9 graph request count). */
export const MAX_POINTS = 300;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * One bucket of the series, as canary-checker's `status` entries (its Timeseries): `status` is true when
 * every result of the bucket passed, `duration` the bucket's mean latency in whole ms. Buckets without
 * results are left out, as canary-checker does.
 */
export interface GraphPoint {
  time: string;
  status: boolean;
  duration: number;
  /** Results in the bucket (passed + failed). */
  count: number;
  passed: number;
  failed: number;
  /** Ours: the slowest result of the bucket (raw results only). */
  max?: number;
}

/**
 * GET /api/canary/api/graph, in canary-checker's shape (its DetailResponse: runnerName, duration, status,
 * latency, uptime), with ours added: the check, where the numbers come from, the bucket width and the range.
 */
export interface GraphAnswer {
  runnerName: string;
  /** Milliseconds the server spent. */
  duration: number;
  status: GraphPoint[];
  latency: UpstreamLatency;
  /** Results in the range: the sums of the series. */
  uptime: { passed: number; failed: number };
  check_id: string;
  source: StatsSource;
  step_ms: number;
  from: string;
  to: string;
}

/** Raw results for up to 2 days of one check, hourly rollups up to 7 days, daily rollups beyond. */
export function graphSource(from: Date, to: Date): StatsSource {
  const span = to.getTime() - from.getTime();
  return span <= 2 * DAY ? 'raw' : span <= 7 * DAY ? 'hourly' : 'daily';
}

function point(time: Date, passed: number, failed: number, mean: number, max?: number | null): GraphPoint {
  return { time: time.toISOString(), status: failed === 0, duration: Math.round(mean), count: passed + failed, passed, failed, ...(max === null || max === undefined ? {} : { max }) };
}

async function series(pool: pg.Pool, checkId: string, from: Date, to: Date, source: StatsSource): Promise<{ step: number; points: GraphPoint[] }> {
  const span = Math.max(1000, to.getTime() - from.getTime());
  if (source === 'raw') {
    const step = Math.max(1000, Math.ceil(span / MAX_POINTS / 1000) * 1000);
    const { rows } = await pool.query<{ t: Date; passed: number; failed: number; avg: number; max: number }>(
      `SELECT date_bin(make_interval(secs => $4 / 1000.0), time, $2::timestamptz) AS t,
              count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed,
              avg(duration)::float8 AS avg, max(duration) AS max
         FROM check_statuses WHERE check_id = $1 AND time >= $2 AND time <= $3
        GROUP BY t ORDER BY t`,
      [checkId, from, to, step],
    );
    return { step, points: rows.map((row) => point(row.t, row.passed, row.failed, row.avg, row.max)) };
  }
  // Rollups hold running totals: a bucket's own counts are its row minus the row before it.
  const table = source === 'hourly' ? 'check_rollups_hourly' : 'check_rollups_daily';
  const step = source === 'hourly' ? HOUR : DAY;
  const { rows } = await pool.query<{ bucket: Date; passed: string; failed: string; duration_sum: string; p_passed: string | null; p_failed: string | null; p_sum: string | null }>(
    `SELECT bucket, passed, failed, duration_sum,
            lag(passed) OVER w AS p_passed, lag(failed) OVER w AS p_failed, lag(duration_sum) OVER w AS p_sum
       FROM ${table}
      WHERE check_id = $1 AND bucket <= $3
        -- from the last bucket before the range (to difference the first one in it) onwards
        AND bucket >= coalesce((SELECT max(bucket) FROM ${table} WHERE check_id = $1 AND bucket < $2), $2)
     WINDOW w AS (ORDER BY bucket) ORDER BY bucket`,
    [checkId, from, to],
  );
  const points: GraphPoint[] = [];
  for (const row of rows) {
    if (row.bucket.getTime() < from.getTime()) continue;
    // A bucket with no row before it is the check's first: its totals are its own counts.
    const passed = Number(row.passed) - Number(row.p_passed ?? 0);
    const failed = Number(row.failed) - Number(row.p_failed ?? 0);
    const sum = Number(row.duration_sum) - Number(row.p_sum ?? 0);
    if (passed + failed > 0) points.push(point(row.bucket, passed, failed, sum / (passed + failed)));
  }
  return { step, points: points.slice(-MAX_POINTS) };
}

/**
 * One check's results over a range in ≤ 300 buckets, with the range's latency percentiles (those of the
 * check's summary over the same range: exact over raw results, from histograms beyond) and its uptime.
 */
export async function checkGraph(pool: pg.Pool, checkId: string, from: Date, to: Date): Promise<GraphAnswer> {
  const started = performance.now();
  const source = graphSource(from, to);
  const [{ step, points }, summary] = await Promise.all([
    series(pool, checkId, from, to, source),
    checksSummary(pool, { from, to, checkIds: [checkId], limit: 1, offset: 0 }),
  ]);
  const uptime = { passed: 0, failed: 0 };
  for (const bucket of points) {
    uptime.passed += bucket.passed;
    uptime.failed += bucket.failed;
  }
  return {
    runnerName: RUNNER_NAME,
    duration: Math.round(performance.now() - started),
    status: points,
    latency: upstreamLatency(summary.checks_summary[0]?.latency),
    uptime,
    check_id: checkId,
    source,
    step_ms: step,
    from: from.toISOString(),
    to: to.toISOString(),
  };
}
