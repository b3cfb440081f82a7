import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { bucketOf } from '../histogram';
import { checksSummary } from '../summary';

/**
 * The statistics answer what the raw results say: for ranges up to a day exactly, for longer ranges from the
 * start of the first hour or day; percentiles within 5%. Results are inserted as checks would report them.
 */
let t: TestApp;
const checkId = '33333333-3333-4333-8333-333333333333';
const now = new Date();

beforeAll(async () => {
  t = await createTestApp();
  await t.db.pool.query(`INSERT INTO canaries (id, name) VALUES ('44444444-4444-4444-8444-444444444444', 'stats')`);
  await t.db.pool.query(`INSERT INTO checks (id, canary_id, key, type, name) VALUES ($1, '44444444-4444-4444-8444-444444444444', 'tcp/x', 'tcp', 'x')`, [checkId]);
  // A second check without results: the summary then reads percentiles from histograms, not exact sorts.
  await t.db.pool.query(`INSERT INTO checks (canary_id, key, type, name) VALUES ('44444444-4444-4444-8444-444444444444', 'tcp/y', 'tcp', 'y')`);
  // 50 hours of a result every 7 minutes, every ninth one failing, durations 10..1000 ms; inserted in time
  // order except the last twenty, which arrive late and out of order.
  const times: Array<{ time: Date; status: boolean; duration: number }> = [];
  for (let i = 0; i < (50 * 60) / 7; i += 1) {
    times.push({ time: new Date(now.getTime() - 50 * 3_600_000 + i * 7 * 60_000 + 1234), status: i % 9 !== 0, duration: 10 + ((i * 37) % 991) });
  }
  const late = times.splice(times.length - 40, 20);
  for (const row of [...times, ...late.reverse()]) {
    await t.db.pool.query('INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, $2, $3, $4)', [checkId, row.time, row.status, row.duration]);
  }
});

afterAll(async () => {
  await t?.close();
});

async function truth(from: Date, to: Date) {
  const { rows } = await t.db.pool.query<{ passed: number; failed: number; p50: number | null; p95: number | null }>(
    `SELECT count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY duration) AS p50, percentile_disc(0.95) WITHIN GROUP (ORDER BY duration) AS p95
       FROM check_statuses WHERE check_id = $1 AND time >= $2 AND time <= $3`,
    [checkId, from, to],
  );
  return rows[0];
}

describe('range statistics', () => {
  for (const [name, hours] of [['15m', 0.25], ['1h', 1], ['6h', 6], ['1d', 24], ['2d', 48]] as const) {
    it(`over ${name} match the raw results`, async () => {
      const to = new Date();
      const from = new Date(to.getTime() - hours * 3_600_000);
      const answer = await checksSummary(t.db.pool, { from, to, limit: 10, offset: 0, query: 'canary=stats' });
      const row = answer.checks_summary.find((check) => check.id === checkId);
      const counted = await truth(new Date(answer.from), to);
      expect(answer.source).toBe(hours <= 24 ? 'raw' : 'hourly');
      if (hours <= 24) expect(answer.from).toBe(from.toISOString());
      expect(row?.uptime).toMatchObject({ passed: counted?.passed, failed: counted?.failed });
      for (const [estimate, exact] of [[row?.latency.p50, counted?.p50], [row?.latency.p95, counted?.p95]] as const) {
        expect(estimate).toBeDefined();
        expect(Math.abs((estimate ?? 0) - (exact ?? 0)) / (exact ?? 1)).toBeLessThanOrEqual(0.1);
      }
    });
  }

  it('over 30 days count from the start of the first day', async () => {
    const to = new Date();
    const answer = await checksSummary(t.db.pool, { from: new Date(to.getTime() - 30 * 86_400_000), to, limit: 10, offset: 0, query: 'canary=stats' });
    expect(answer.source).toBe('daily');
    const counted = await truth(new Date(answer.from), to);
    expect(answer.checks_summary[0]?.uptime).toMatchObject({ passed: counted?.passed, failed: counted?.failed });
  });

  it('count exactly from any second of a 10-minute step, again from memory, and after a late result', async () => {
    const to = new Date();
    const check = async (from: Date) => {
      const answer = await checksSummary(t.db.pool, { from, to, limit: 10, offset: 0, query: 'canary=stats' });
      const counted = await truth(from, to);
      return { from: from.toISOString(), uptime: answer.checks_summary.find((row) => row.id === checkId)?.uptime, counted };
    };
    // Starts spread over a whole 10-minute step three hours back: both ends of the step are used.
    for (let offset = 0; offset < 600_000; offset += 61_000) {
      const from = new Date(Math.floor((to.getTime() - 3 * 3_600_000) / 600_000) * 600_000 + offset);
      for (let pass = 0; pass < 2; pass += 1) {
        const { uptime, counted } = await check(from);
        expect(uptime, from.toISOString()).toMatchObject({ passed: counted?.passed, failed: counted?.failed });
      }
    }
    // A result recorded long after its time changes totals already kept in memory: it is counted.
    const from = new Date(to.getTime() - 5 * 3_600_000);
    const before = await check(from);
    await t.db.pool.query('INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, $2, false, 5)', [checkId, new Date(to.getTime() - 4 * 3_600_000 + 17)]);
    const after = await check(from);
    expect(after.uptime?.failed).toBe((before.uptime?.failed ?? 0) + 1);
    expect(after.uptime).toMatchObject({ passed: after.counted?.passed, failed: after.counted?.failed });
  });

  it('bucket durations here exactly as latency_bucket() does in the database', async () => {
    const { rows } = await t.db.pool.query<{ d: number; b: number }>('SELECT d, latency_bucket(d) AS b FROM generate_series(0, 200000, 3) d');
    expect(rows.filter((row) => bucketOf(row.d) !== row.b)).toEqual([]);
  });
});

describe('/api/db summaries', () => {
  it('check_summary counts the last 24 whole hours as the raw results do, with the summary API\'s percentiles', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/db/check_summary?id=eq.${checkId}`, headers: t.adminHeaders });
    expect(response.statusCode).toBe(200);
    const [row] = response.json<Array<{ since: string; uptime: { passed: number; failed: number }; latency: Record<string, number | null> }>>();
    expect(row).toBeDefined();
    const since = new Date(row?.since ?? '');
    const hour = 3_600_000;
    expect(since.getTime()).toBe(Math.floor(Date.now() / hour) * hour - 24 * hour);
    const counted = await truth(since, new Date());
    expect(row?.uptime).toMatchObject({ passed: counted?.passed, failed: counted?.failed });
    const answer = await checksSummary(t.db.pool, { from: since, to: new Date(), limit: 10, offset: 0, query: 'canary=stats' });
    const latency = answer.checks_summary.find((check) => check.id === checkId)?.latency;
    expect(row?.latency).toEqual({ p50: latency?.p50, p95: latency?.p95, p97: latency?.p97, p99: latency?.p99 });
  });

  it('checks_by_component and check_summary_for_config follow live relationships only', async () => {
    const component = '55555555-5555-4555-8555-555555555555';
    const config = '66666666-6666-4666-8666-666666666666';
    await t.db.pool.query('INSERT INTO check_component_relationships (check_id, component_id) VALUES ($1, $2)', [checkId, component]);
    await t.db.pool.query('INSERT INTO check_config_relationships (check_id, config_id) VALUES ($1, $2)', [checkId, config]);
    const get = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers: t.adminHeaders });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Array<{ id: string; name: string; uptime?: { passed: number } }>>();
    };
    expect((await get(`/api/db/checks_by_component?component_id=eq.${component}&select=id,name`)).map((row) => row.name)).toEqual(['x']);
    const [forConfig] = await get(`/api/db/check_summary_for_config?config_id=eq.${config}&select=id,uptime`);
    expect(forConfig?.id).toBe(checkId);
    expect(forConfig?.uptime?.passed).toBeGreaterThan(0);
    await t.db.pool.query('UPDATE check_component_relationships SET deleted_at = now() WHERE component_id = $1', [component]);
    await t.db.pool.query('UPDATE check_config_relationships SET deleted_at = now() WHERE config_id = $1', [config]);
    expect(await get(`/api/db/checks_by_component?component_id=eq.${component}`)).toEqual([]);
    expect(await get(`/api/db/check_summary_for_config?config_id=eq.${config}`)).toEqual([]);
  });
});

describe('many checks', () => {
  it('count the same when a thousand more checks report (edges read by time alone)', async () => {
    await t.db.pool.query(`INSERT INTO canaries (id, name) VALUES ('77777777-7777-4777-8777-777777777777', 'many')`);
    await t.db.pool.query(
      `WITH c AS (INSERT INTO checks (canary_id, key, type, name) SELECT '77777777-7777-4777-8777-777777777777', 'tcp/m' || n, 'tcp', 'm' || n FROM generate_series(1, 1000) n RETURNING id)
       INSERT INTO check_statuses (check_id, time, status, duration) SELECT id, now() - interval '50 minutes' - random() * interval '20 minutes', true, 7 FROM c`,
    );
    for (const hours of [1, 3]) {
      const to = new Date();
      const from = new Date(to.getTime() - hours * 3_600_000 + 123_456);
      const all = await checksSummary(t.db.pool, { from, to, limit: 5000, offset: 0 });
      const one = await checksSummary(t.db.pool, { from, to, limit: 10, offset: 0, query: 'canary=stats' });
      expect(all.total).toBeGreaterThan(1000);
      const counted = await truth(from, to);
      for (const answer of [all, one]) {
        expect(answer.checks_summary.find((row) => row.id === checkId)?.uptime).toMatchObject({ passed: counted?.passed, failed: counted?.failed });
      }
      const many = all.checks_summary.filter((row) => row.canary_name === 'many');
      expect(many).toHaveLength(1000);
      const { rows } = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = '77777777-7777-4777-8777-777777777777' AND s.time >= $1`,
        [from],
      );
      expect(many.reduce((sum, row) => sum + row.uptime.passed, 0)).toBe(rows[0]?.n);
    }
  });

  it('show a check as it is now after it changes, is deleted, or its canary is renamed', async () => {
    const to = new Date();
    const ask = async () => (await checksSummary(t.db.pool, { from: new Date(to.getTime() - 3_600_000), to, limit: 5000, offset: 0 })).checks_summary;
    expect((await ask()).find((row) => row.id === checkId)?.name).toBe('x');
    await t.db.pool.query(`UPDATE checks SET name = 'x renamed', status = 'unhealthy' WHERE id = $1`, [checkId]);
    expect((await ask()).find((row) => row.id === checkId)).toMatchObject({ name: 'x renamed', status: 'unhealthy' });
    await t.db.pool.query(`UPDATE canaries SET name = 'stats renamed' WHERE id = '44444444-4444-4444-8444-444444444444'`);
    expect((await ask()).find((row) => row.id === checkId)?.canary_name).toBe('stats renamed');
    await t.db.pool.query(`UPDATE checks SET deleted_at = now() WHERE canary_id = '77777777-7777-4777-8777-777777777777' AND name = 'm1'`);
    expect((await ask()).filter((row) => row.canary_name === 'many')).toHaveLength(999);
    await t.db.pool.query(`DELETE FROM checks WHERE canary_id = '77777777-7777-4777-8777-777777777777' AND name = 'm2'`);
    expect((await ask()).filter((row) => row.canary_name === 'many')).toHaveLength(998);
    await t.db.pool.query(`INSERT INTO checks (canary_id, key, type, name) VALUES ('77777777-7777-4777-8777-777777777777', 'tcp/new', 'tcp', 'new one')`);
    expect((await ask()).filter((row) => row.canary_name === 'many').map((row) => row.name)).toContain('new one');
  });
});
