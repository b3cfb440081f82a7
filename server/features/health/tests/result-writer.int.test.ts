import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { recordResultSoon, RESULT_WINDOW_MILLIS } from '../result-writer';
import { recordResult, type CheckResult } from '../results';

/**
 * Results written together (result-writer.ts) store what one by one would: raw rows, rollups, the
 * check's status and times, transitions and their events, in arrival order even for one check; a result
 * the database refuses (its check deleted) fails alone.
 */
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

async function checksIn(canary: string, names: string[]): Promise<string[]> {
  const { rows: made } = await db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace, spec, schedule, next_run_at) VALUES ($1, 'writer', '{}', NULL, 'infinity') RETURNING id", [canary]);
  const ids: string[] = [];
  for (const name of names) {
    const { rows } = await db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name, namespace) VALUES ($1, $2, 'http', $3, 'writer') RETURNING id", [made[0]?.id, `http/${name}`, name]);
    ids.push(rows[0]?.id ?? '');
  }
  return ids;
}

const base = Date.parse('2024-03-01T10:00:00Z');
const result = (second: number, pass: boolean, duration = 12): CheckResult => ({
  pass,
  invalid: false,
  time: new Date(base + second * 1000),
  duration,
  message: pass ? 'ok' : 'down',
  error: pass ? null : 'connection refused',
  details: { code: pass ? 200 : 0 },
});

/** Everything a result leaves behind for these checks, keyed by check name. */
async function stored(ids: string[]) {
  const { rows } = await db.pool.query(
    `SELECT c.name, c.status, c.last_runtime, c.last_pass, c.last_fail, c.last_transition_time,
            (SELECT json_agg(json_build_object('time', s.time, 'status', s.status, 'duration', s.duration, 'message', s.message, 'error', s.error, 'details', s.details) ORDER BY s.time) FROM check_statuses s WHERE s.check_id = c.id) AS raw,
            (SELECT row_to_json(t) FROM (SELECT passed, failed, duration_sum, hist_buckets, hist_counts, last_time FROM check_totals WHERE check_id = c.id) t) AS totals,
            (SELECT json_agg(json_build_object('bucket', r.bucket, 'passed', r.passed, 'failed', r.failed) ORDER BY r.bucket) FROM check_rollups_10m r WHERE r.check_id = c.id) AS rollups,
            (SELECT json_agg(json_build_object('name', e.name, 'status', e.properties->>'status', 'previous', e.properties->'previous', 'time', e.properties->>'time') ORDER BY e.properties->>'time')
               FROM event_queue e WHERE e.properties->>'check_id' = c.id::text) AS events
       FROM checks c WHERE c.id = ANY($1::uuid[]) ORDER BY c.name`,
    [ids],
  );
  return rows.map((row: Record<string, unknown>) => ({ ...row, name: String(row.name).replace(/^(one|many)-/, '') }));
}

describe('results written together', () => {
  it('store what recording them one by one stores, transitions and events included', async () => {
    const names = ['a', 'b', 'c'];
    const one = await checksIn('one-by-one', names.map((name) => `one-${name}`));
    const many = await checksIn('together', names.map((name) => `many-${name}`));
    // a: pass, fail, pass (two transitions); b: fail first (a change from presumed healthy); c: passes, 11 minutes apart.
    const feed: Array<[number, CheckResult]> = [
      [0, result(0, true)],
      [1, result(0, false, 3000)],
      [2, result(0, true, 40)],
      [0, result(20, false)],
      [0, result(700, true)],
      [2, result(30, true, 15)],
    ];
    const answersOne = [];
    for (const [i, item] of feed) answersOne.push(await recordResult(db.pool, one[i] ?? '', item));
    // Together: all in one window, several results of one check among them.
    const answersMany = await Promise.all(feed.map(([i, item]) => recordResultSoon(db.pool, { checkId: many[i] ?? '', result: item })));
    expect(answersMany).toEqual(answersOne);
    expect(answersMany.map((answer) => answer.transitioned)).toEqual([false, true, false, true, true, false]);
    expect(await stored(many)).toEqual(await stored(one));
    // One transaction for the window: the raw rows share their insert's transaction.
    const { rows } = await db.pool.query<{ transactions: number }>('SELECT count(DISTINCT xmin::text)::int AS transactions FROM check_statuses WHERE check_id = ANY($1::uuid[])', [many]);
    expect(rows[0]?.transactions).toBe(1);
  });

  it('sets the next run of a scheduled check, and fails a result of a deleted check alone', async () => {
    const [kept, gone] = await checksIn('partly-deleted', ['kept', 'gone']);
    await db.pool.query('DELETE FROM checks WHERE id = $1', [gone]);
    const next = new Date(base + 20_000);
    const [ok, refused] = await Promise.allSettled([
      recordResultSoon(db.pool, { checkId: kept ?? '', result: result(0, true), nextRuntime: next }),
      recordResultSoon(db.pool, { checkId: gone ?? '', result: result(0, true) }),
    ]);
    expect(ok).toEqual({ status: 'fulfilled', value: { status: 'healthy', transitioned: false } });
    expect(refused).toMatchObject({ status: 'rejected', reason: { message: `check ${gone} no longer exists` } });
    const { rows } = await db.pool.query<{ next_runtime: Date; results: number }>('SELECT next_runtime, (SELECT count(*)::int FROM check_statuses WHERE check_id = $1) AS results FROM checks WHERE id = $1', [kept]);
    expect(rows[0]).toEqual({ next_runtime: next, results: 1 });
  });

  it('fails only the result the database refuses when it refuses the batch', async () => {
    const [good, bad] = await checksIn('refused-text', ['good', 'bad']);
    const started = Date.now();
    const [ok, refused] = await Promise.allSettled([
      recordResultSoon(db.pool, { checkId: good ?? '', result: result(5, true) }),
      // PostgreSQL text cannot hold a NUL character: the whole statement fails, then each is tried alone.
      recordResultSoon(db.pool, { checkId: bad ?? '', result: { ...result(5, false), message: 'bad \u0000 byte' } }),
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(RESULT_WINDOW_MILLIS - 2);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { status: 'healthy' } });
    expect(refused).toMatchObject({ status: 'rejected' });
    const { rows } = await db.pool.query<{ name: string; results: number }>('SELECT name, (SELECT count(*)::int FROM check_statuses s WHERE s.check_id = c.id) AS results FROM checks c WHERE c.id = ANY($1::uuid[]) ORDER BY name', [[good, bad]]);
    expect(rows).toEqual([{ name: 'bad', results: 0 }, { name: 'good', results: 1 }]);
  });
});
