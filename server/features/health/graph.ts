import type pg from 'pg';
import type { StatsSource } from './summary';

/** At most this many points per series (spec §9 graph request count). */
export const MAX_POINTS = 300;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface GraphPoint {
  time: string;
  passed: number;
  failed: number;
  /** Mean latency of the bucket in ms (null without results). */
  avg: number | null;
  /** Slowest result of the bucket (raw results only). */
  max: number | null;
}

export interface GraphAnswer {
  check_id: string;
  source: StatsSource;
  step_ms: number;
  from: string;
  to: string;
  points: GraphPoint[];
}

/** Raw results for up to 2 days of one check, hourly rollups up to 7 days, daily rollups beyond. */
export function graphSource(from: Date, to: Date): StatsSource {
  const span = to.getTime() - from.getTime();
  return span <= 2 * DAY ? 'raw' : span <= 7 * DAY ? 'hourly' : 'daily';
}

/** GET /api/canary/api/graph: one check's pass/fail counts and latency over a range, in ≤ 300 buckets. */
export async function checkGraph(pool: pg.Pool, checkId: string, from: Date, to: Date): Promise<GraphAnswer> {
  const source = graphSource(from, to);
  const span = Math.max(1000, to.getTime() - from.getTime());
  if (source === 'raw') {
    const step = Math.max(1000, Math.ceil(span / MAX_POINTS / 1000) * 1000);
    const { rows } = await pool.query<{ t: Date; passed: number; failed: number; avg: number | null; max: number | null }>(
      `SELECT date_bin(make_interval(secs => $4 / 1000.0), time, $2::timestamptz) AS t,
              count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed,
              round(avg(duration))::int AS avg, max(duration) AS max
         FROM check_statuses WHERE check_id = $1 AND time >= $2 AND time <= $3
        GROUP BY t ORDER BY t`,
      [checkId, from, to, step],
    );
    return { check_id: checkId, source, step_ms: step, from: from.toISOString(), to: to.toISOString(), points: rows.map((row) => ({ ...row, time: row.t.toISOString() })) };
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
    points.push({ time: row.bucket.toISOString(), passed, failed, avg: passed + failed > 0 ? Math.round(sum / (passed + failed)) : null, max: null });
  }
  return { check_id: checkId, source, step_ms: step, from: from.toISOString(), to: to.toISOString(), points: points.slice(-MAX_POINTS) };
}
