import type pg from 'pg';
import type { CheckRow } from './check-rows';

/**
 * A check's newest results as the summary adds them (`recent_statuses`), newest first, as two arrays of one
 * length: each result's time (epoch milliseconds) and whether it passed. Arrays rather than an object per
 * result: for the 10,000 checks of a Health page, 200,000 small objects took ~350 ms more to parse in the
 * browser than the summary itself; these take a fraction of that.
 */
export interface RecentStatuses {
  time: number[];
  status: boolean[];
}

/** The most a summary request may ask of each check (`recent`). */
export const MAX_RECENT_STATUSES = 100;

/** A check's newest results are read again after this long even when its row did not change (retention). */
const KEPT_MS = 10 * 60_000;

interface Kept {
  count: number;
  at: number;
  statuses: RecentStatuses;
}

/**
 * Newest results per check row: every write of a result also updates its check's row in the same transaction
 * (results.ts, result-writer.ts), and check-rows.ts hands out a new row object for every check written since
 * its previous read, so a row object that is still the current one has no results newer than those kept
 * for it. Keyed by the row object, entries go with the rows they were read for.
 */
const kept = new WeakMap<CheckRow, Kept>();

/**
 * The newest `count` results of each check up to `to` (not bounded by the range's start: a strip shows a
 * check's last results even when it ran before the range), newest first, for a page of checks in one query:
 * each check's newest results are read from the key (check_id, time) backwards and aggregated in the
 * database into one row per check. When the range ends now
 * (`endsNow`), checks whose rows have not changed since their results were last read answer from memory
 * and only the others are read; the Health page's refreshes then read the checks that ran meanwhile.
 */
export async function recentStatuses(pool: pg.Pool, checks: readonly CheckRow[], to: Date, count: number, endsNow: boolean): Promise<Map<string, RecentStatuses>> {
  const byCheck = new Map<string, RecentStatuses>();
  const limit = Math.min(count, MAX_RECENT_STATUSES);
  if (checks.length === 0 || limit <= 0) return byCheck;
  const now = Date.now();
  const toRead: CheckRow[] = [];
  for (const check of checks) {
    const entry = endsNow ? kept.get(check) : undefined;
    if (entry && entry.count >= limit && now - entry.at < KEPT_MS) byCheck.set(check.id, { time: entry.statuses.time.slice(0, limit), status: entry.statuses.status.slice(0, limit) });
    else toRead.push(check);
  }
  if (toRead.length === 0) return byCheck;
  const { rows } = await pool.query<{ id: string; time: number[] | null; status: boolean[] | null }>(
    `SELECT c.id, r.time, r.status
       FROM unnest($1::uuid[]) AS c(id)
       CROSS JOIN LATERAL (
         SELECT json_agg(floor(extract(epoch FROM s.time) * 1000)::int8 ORDER BY s.time DESC) AS time, json_agg(s.status ORDER BY s.time DESC) AS status
           FROM (SELECT time, status FROM check_statuses WHERE check_id = c.id AND time <= $2 ORDER BY time DESC LIMIT $3) s
       ) r`,
    [toRead.map((check) => check.id), to, limit],
  );
  const read = new Map(rows.map((row): [string, RecentStatuses] => [row.id, { time: row.time ?? [], status: row.status ?? [] }]));
  for (const check of toRead) {
    const statuses = read.get(check.id) ?? { time: [], status: [] };
    byCheck.set(check.id, statuses);
    if (endsNow) kept.set(check, { count: limit, at: now, statuses });
  }
  return byCheck;
}
