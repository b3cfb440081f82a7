import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { contractProblems, SUMMARY } from '../../../../test/contracts/canary-checker';

/**
 * The summary's recent_statuses (docs/HEALTH.md, the Health list's strip): each check of the page carries its
 * newest results up to the range's end, newest first, read for the whole page in one query; canary-checker's
 * fields stay as they are.
 */
let t: TestApp;
const CANARY = '55555555-5555-4555-8555-555555555555';
const MINUTE = 60_000;
const now = Date.now();
const checks: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.db.pool.query(`INSERT INTO canaries (id, name) VALUES ($1, 'strip')`, [CANARY]);
  // 30 checks named c00..c29: check i has 8 + i % 4 results a minute apart ending i minutes ago, every
  // (i % 3 + 2)th failing; c29 has none.
  for (let i = 0; i < 30; i += 1) {
    const name = `c${String(i).padStart(2, '0')}`;
    const { rows } = await t.db.pool.query<{ id: string }>(`INSERT INTO checks (canary_id, key, type, name) VALUES ($1, $2, 'tcp', $3) RETURNING id`, [CANARY, `tcp/${name}`, name]);
    const id = rows[0]?.id ?? '';
    checks.push(id);
    if (i === 29) continue;
    const count = 8 + (i % 4);
    for (let k = 0; k < count; k += 1) {
      await t.db.pool.query('INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, $2, $3, 10)', [id, new Date(now - (i + count - 1 - k) * MINUTE), k % (i % 3 + 2) !== 0]);
    }
  }
});

afterAll(async () => {
  await t?.close();
});

async function summary(body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/canary/api/summary', headers: { ...t.adminHeaders, 'content-type': 'application/json' }, payload: { start: '1h', query: 'canary=strip', sortBy: 'name', ...body } });
  return { status: res.statusCode, json: res.json<Record<string, unknown> & { checks_summary: Array<{ id: string; name: string; recent_statuses?: { time: number[]; status: boolean[] } }> }>() };
}

async function truth(id: string, count: number, to = new Date()) {
  const { rows } = await t.db.pool.query<{ time: Date; status: boolean }>('SELECT time, status FROM check_statuses WHERE check_id = $1 AND time <= $2 ORDER BY time DESC LIMIT $3', [id, to, count]);
  return { time: rows.map((row) => row.time.getTime()), status: rows.map((row) => row.status) };
}

/** How many queries read check_statuses while `run` runs. */
async function statusQueries(run: () => Promise<unknown>): Promise<number> {
  const pool = t.db.pool;
  const query = pool.query.bind(pool);
  let count = 0;
  pool.query = ((...args: Parameters<typeof query>) => {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
    if (text?.includes('check_statuses')) count += 1;
    return query(...args);
  }) as typeof pool.query;
  try {
    await run();
  } finally {
    pool.query = query;
  }
  return count;
}

describe('recent statuses in the summary', () => {
  it('gives each check of the page its newest results, newest first, when asked', async () => {
    const { status, json } = await summary({ recent: 5, limit: 12, offset: 3 });
    expect(status).toBe(200);
    expect(json.checks_summary.map((check) => check.name)).toEqual(Array.from({ length: 12 }, (_, i) => `c${String(i + 3).padStart(2, '0')}`));
    for (const check of json.checks_summary) {
      expect(check.recent_statuses).toEqual(await truth(check.id, 5));
      expect(check.recent_statuses?.time).toHaveLength(5);
    }
    // Both results and failures show: c04 fails every 3rd result.
    expect(json.checks_summary[1]?.recent_statuses?.status).toEqual([true, false, true, true, false]);
    // canary-checker's fields are untouched: the answer still meets its contract.
    expect(contractProblems(json, SUMMARY, '', { nullForEmpty: true })).toEqual([]);
  });

  it('reads results up to the range’s end, before its start too; a check without any has none', async () => {
    const end = new Date(now - 15 * MINUTE);
    const { json } = await summary({ start: new Date(now - 16 * MINUTE).toISOString(), end: end.toISOString(), recent: 20, limit: 100 });
    const byName = new Map(json.checks_summary.map((check) => [check.name, check]));
    // c10 ran 19 to 10 minutes ago: its results up to 15 minutes ago, three of them before the range's start.
    const c10 = byName.get('c10');
    expect(c10?.recent_statuses).toEqual(await truth(c10?.id ?? '', 20, end));
    expect(c10?.recent_statuses?.time.map((time) => Math.round((now - time) / MINUTE))).toEqual([15, 16, 17, 18, 19]);
    expect(byName.get('c29')?.recent_statuses).toEqual({ time: [], status: [] });
  });

  it('leaves them out unless asked, and refuses a count out of bounds naming the field', async () => {
    const { json } = await summary({ limit: 3 });
    expect(json.checks_summary.every((check) => check.recent_statuses === undefined)).toBe(true);
    const res = await summary({ recent: 101 });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain('recent');
    expect(JSON.stringify(res.json)).toContain('at most 100');
  });

  it('reads them in one query for the whole page, not one per check', async () => {
    // A range that ended a minute ago: nothing comes from memory.
    const end = new Date(Date.now() - MINUTE).toISOString();
    await summary({ end, recent: 5, limit: 30 });
    const page = await statusQueries(() => summary({ end, recent: 5, limit: 30 }));
    const small = await statusQueries(() => summary({ end, recent: 5, limit: 2 }));
    const without = await statusQueries(() => summary({ end, limit: 30 }));
    expect(page).toBe(small);
    expect(page - without).toBe(1);
  });

  it('keeps them for a range that ends now until a check has a new result', async () => {
    await summary({ recent: 5, limit: 30 });
    const without = await statusQueries(() => summary({ limit: 30 }));
    // Nothing ran since: every check's results come from memory. (Rows are re-read while a transaction
    // older than their writes is open anywhere on the server: transaction ids are the server's, and other
    // test files run beside this one. Such a transaction ends within seconds.)
    let fromMemory = false;
    for (let attempt = 0; attempt < 40 && !fromMemory; attempt += 1) {
      fromMemory = (await statusQueries(() => summary({ recent: 5, limit: 30 }))) === without;
      if (!fromMemory) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(fromMemory).toBe(true);
    // A new result of c05, written as the result writers write one (its check row updated with it).
    const c05 = checks[5] ?? '';
    const client = await t.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, $2, false, 10)', [c05, new Date(Date.now() - 1000)]);
      await client.query(`UPDATE checks SET status = 'unhealthy', last_runtime = greatest(last_runtime, now()) WHERE id = $1`, [c05]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    let answer: Awaited<ReturnType<typeof summary>> | undefined;
    expect(await statusQueries(async () => (answer = await summary({ recent: 5, limit: 30 })))).toBe(without + 1);
    const row = answer?.json.checks_summary.find((check) => check.id === c05);
    expect(row?.recent_statuses).toEqual(await truth(c05, 5));
    expect(row?.recent_statuses?.status[0]).toBe(false);
    // A larger count than kept is read again.
    const larger = await summary({ recent: 8, limit: 30 });
    for (const check of larger.json.checks_summary) expect(check.recent_statuses).toEqual(await truth(check.id, 8));
  });
});
