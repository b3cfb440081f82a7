import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import {
  ABOUT,
  CHECK_SUMMARY,
  contractProblems,
  emptyFields,
  GRAPH,
  LEGACY_API,
  LEGACY_CHECK,
  RUN_RESULT,
  SUMMARY,
  TIMESERIES,
  UPTIME,
  type Contract,
} from '../../../../test/contracts/canary-checker';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { canaryKind } from '../canary-kind';
import { runCanary } from '../run-canary';
import { closedPort as freeClosedPort } from '../testing/check-harness';

/**
 * canary-checker's endpoints under /api/canary answer in canary-checker's shapes (test/contracts/canary-checker.ts
 * lists its fields and types): real tcp checks run against a peer on 127.0.0.1, with 40 days of history inserted
 * before them, so the graph is read from raw results, hourly and daily rollups.
 */
let t: TestApp;
let server: net.Server;
const ids: Record<string, string> = {};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  t = await createTestApp();
  server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const closedPort = await freeClosedPort();
  const results = await applyDocuments(
    t.db.pool,
    [canaryKind],
    [
      {
        file: 'canaries.yaml',
        text: `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: contract, namespace: shop, labels: {team: ops}}
spec:
  schedule: "@every 1h"
  owner: platform
  severity: high
  tcp:
    - {name: open-port, endpoint: "127.0.0.1:${port}", description: the shop database, icon: postgres, labels: {tier: db}}
    - {name: closed-port, endpoint: "127.0.0.1:${closedPort}", labels: {tier: cache}}
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: idle, namespace: shop}
spec:
  schedule: "@every 1h"
  tcp:
    - {name: not-run-yet, endpoint: "127.0.0.1:${port}"}
`,
      },
    ],
    'ConfigFile',
    createLogger('silent'),
  );
  expect(results.every((result) => result.ok)).toBe(true);
  const { rows } = await t.db.pool.query<{ id: string; name: string }>('SELECT id, name FROM checks');
  for (const row of rows) ids[row.name] = row.id;
  // History before the real runs: 40 days of one result a day, then 6 days of one an hour, every fifth failing.
  const now = Date.now();
  const history: Array<[Date, boolean, number]> = [];
  for (let day = 40; day > 6; day -= 1) history.push([new Date(now - day * DAY), day % 5 !== 0, 40 + day]);
  for (let hour = 6 * 24; hour > 2; hour -= 1) history.push([new Date(now - hour * HOUR), hour % 5 !== 0, 20 + (hour % 30)]);
  for (const [time, status, duration] of history) {
    await t.db.pool.query('INSERT INTO check_statuses (check_id, time, status, duration, message, error) VALUES ($1, $2, $3, $4, $5, $6)', [
      ids['open-port'],
      time,
      status,
      duration,
      status ? 'connected' : null,
      status ? null : 'refused',
    ]);
  }
  const { rows: canaries } = await t.db.pool.query<{ id: string }>("SELECT id FROM canaries WHERE name = 'contract'");
  for (let run = 0; run < 2; run += 1) await runCanary({ pool: t.db.pool, log: createLogger('silent') }, canaries[0]?.id ?? '', new AbortController().signal);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t?.close();
});

async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...t.adminHeaders, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.body, json: () => JSON.parse(res.body) as Record<string, unknown> };
}

/** The `omitempty` fields that no row carries: what we never send. */
function neverCarried(rows: unknown[], contract: Contract): string[] {
  const sets = rows.map((row) => new Set(emptyFields(row as object, contract)));
  return Object.keys(contract).filter((name) => sets.length > 0 && sets.every((set) => set.has(name)));
}

const checksOf = (answer: Record<string, unknown>, key: string) => answer[key] as Array<Record<string, unknown>>;

describe("canary-checker's /api/summary", () => {
  it('answers its SummaryResponse, GET and POST, with every field a check has', async () => {
    for (const answer of [await call('GET', '/api/canary/api/summary'), await call('POST', '/api/canary/api/summary', {})]) {
      expect(answer.status).toBe(200);
      const json = answer.json();
      expect(contractProblems(json, SUMMARY, '', { nullForEmpty: true })).toEqual([]);
      const checks = checksOf(json, 'checks_summary');
      expect(checks.map((check) => check.name).sort()).toEqual(['closed-port', 'not-run-yet', 'open-port']);
      // Everything canary-checker can send, some check carries, but what it has no such thing for here.
      expect(neverCarried(checks, CHECK_SUMMARY)).toEqual(['deleted_at', 'silenced_at']);
      expect(neverCarried(checks.map((check) => check.uptime), UPTIME)).toEqual(['p100']);
      expect(json.runnerName).toBe('local');
    }
  });

  it("sends a check without results as canary-checker does: status '' and rolling1h 0", async () => {
    const json = (await call('GET', '/api/canary/api/summary?query=name=not-run-yet')).json();
    expect(checksOf(json, 'checks_summary')).toEqual([expect.objectContaining({ name: 'not-run-yet', status: '', uptime: expect.objectContaining({ passed: 0, failed: 0 }), latency: expect.objectContaining({ rolling1h: 0 }) })]);
  });

  it("takes canary-checker's filters: labels as a map, sortBy name or -name", async () => {
    const byMap = (await call('POST', '/api/canary/api/summary', { labels: { tier: 'db' } })).json();
    expect(checksOf(byMap, 'checks_summary').map((check) => check.name)).toEqual(['open-port']);
    const descending = (await call('POST', '/api/canary/api/summary', { sortBy: '-name' })).json();
    expect(checksOf(descending, 'checks_summary').map((check) => check.name)).toEqual(['open-port', 'not-run-yet', 'closed-port']);
    const bad = await call('POST', '/api/canary/api/summary', { sortBy: 'colour' });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_request', details: [{ path: 'body.sortBy', message: expect.stringContaining('must be one of name,') }] });
  });
});

describe("canary-checker's /api", () => {
  it('lists the checks with their newest results (5 by default, count=…), and the summary', async () => {
    const json = (await call('GET', '/api/canary/api?start=7d')).json();
    expect(contractProblems(json, LEGACY_API, '', { nullForEmpty: ['checks_summary'] })).toEqual([]);
    const checks = checksOf(json, 'checks');
    expect(neverCarried(checks, LEGACY_CHECK)).toEqual(['displayType', 'transformed', 'deletedAt', 'silencedAt', 'earliestRuntime', 'latestRuntime', 'totalRuns']);
    const open = checks.find((check) => check.name === 'open-port');
    const statuses = open?.checkStatuses as Array<{ time: string; message?: string }>;
    expect(statuses).toHaveLength(5);
    expect(statuses.map((status) => status.time)).toEqual([...statuses.map((status) => status.time)].sort().reverse());
    expect(statuses.some((status) => 'message' in status)).toBe(false);
    expect(checks.find((check) => check.name === 'not-run-yet')?.checkStatuses).toEqual([]);
  });

  it("takes canary-checker's parameters: check, since, count, includeMessages", async () => {
    const json = (await call('GET', `/api/canary/api?check=${ids['closed-port']}&since=1h&count=1&includeMessages=true`)).json();
    expect(contractProblems(json, LEGACY_API, '', { nullForEmpty: ['checks_summary'] })).toEqual([]);
    const checks = checksOf(json, 'checks');
    expect(checks).toHaveLength(1);
    expect(checks[0]?.checkStatuses).toEqual([{ status: false, time: expect.any(String), duration: expect.any(Number), message: expect.stringContaining('could not connect'), error: expect.stringContaining('ECONNREFUSED') }]);
    const bad = await call('GET', '/api/canary/api?count=many&since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('query.count');
  });
});

describe("canary-checker's /api/graph", () => {
  const truth = async (from: Date, to: Date) => {
    const { rows } = await t.db.pool.query<{ passed: number; failed: number }>(
      'SELECT count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed FROM check_statuses WHERE check_id = $1 AND time >= $2 AND time <= $3',
      [ids['open-port'], from, to],
    );
    return rows[0];
  };

  for (const [start, source] of [['1h', 'raw'], ['2d', 'raw'], ['5d', 'hourly'], ['30d', 'daily']] as const) {
    it(`answers its DetailResponse over ${start} (${source}): status series, latency percentiles, uptime counts`, async () => {
      const answer = await call('GET', `/api/canary/api/graph?check=${ids['open-port']}&start=${start}`);
      expect(answer.status).toBe(200);
      const json = answer.json();
      expect(contractProblems(json, GRAPH)).toEqual([]);
      expect(json).toMatchObject({ runnerName: 'local', source, check_id: ids['open-port'] });
      const series = json.status as Array<{ status: boolean; passed: number; failed: number; count: number; duration: number }>;
      expect(series.length).toBeGreaterThan(0);
      expect(series.length).toBeLessThanOrEqual(300);
      expect(neverCarried(series, TIMESERIES)).toEqual(['key', 'message', 'error']);
      for (const point of series) {
        expect(point.status).toBe(point.failed === 0);
        expect(point.count).toBe(point.passed + point.failed);
      }
      const uptime = json.uptime as { passed: number; failed: number };
      expect(uptime).toEqual({ passed: series.reduce((sum, point) => sum + point.passed, 0), failed: series.reduce((sum, point) => sum + point.failed, 0) });
      if (source === 'raw') expect(uptime).toEqual(await truth(new Date(String(json.from)), new Date(String(json.to))));
      const latency = json.latency as Record<string, number>;
      expect(latency.p95).toBeGreaterThan(0);
      expect(latency.p99).toBeGreaterThanOrEqual(latency.p95 ?? 0);
    });
  }

  it("takes canary-checker's since and until, and answers an empty series for a check without results", async () => {
    const until = new Date(Date.now() - 3 * DAY).toISOString();
    const json = (await call('GET', `/api/canary/api/graph?check=${ids['open-port']}&since=4d&until=${until}`)).json();
    expect(contractProblems(json, GRAPH)).toEqual([]);
    expect(json.to).toBe(until);
    expect((json.uptime as { passed: number }).passed).toBeGreaterThan(0);
    const empty = (await call('GET', `/api/canary/api/graph?check=${ids['not-run-yet']}`)).json();
    expect(contractProblems(empty, GRAPH)).toEqual([]);
    expect(empty).toMatchObject({ status: [], uptime: { passed: 0, failed: 0 }, latency: { rolling1h: 0 } });
  });

  it('names the parameter that is wrong', async () => {
    const missing = await call('GET', '/api/canary/api/graph?start=1h');
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ details: [{ path: 'query.check' }] });
    const since = await call('GET', `/api/canary/api/graph?check=${ids['open-port']}&since=last-week`);
    expect(since.status).toBe(400);
    expect(since.json()).toMatchObject({ details: [{ path: 'since', message: expect.stringContaining('duration') }] });
    expect(since.body).not.toMatch(/select|stack/i);
  });

  it('the graph this console answered before fails the contract (its series was `points`)', () => {
    const before = { check_id: ids['open-port'], source: 'raw', step_ms: 12_000, from: '2024-01-01T00:00:00.000Z', to: '2024-01-01T01:00:00.000Z', points: [{ time: '2024-01-01T00:00:00.000Z', passed: 1, failed: 0, avg: 3, max: 3 }] };
    expect(contractProblems(before, GRAPH)).toEqual(['runnerName: is missing', 'status: is missing', 'latency: is missing', 'uptime: is missing']);
  });
});

describe("canary-checker's /about and /run/check/{id}", () => {
  it('about answers its Timestamp and Version', async () => {
    expect(contractProblems((await call('GET', '/api/canary/about')).json(), ABOUT)).toEqual([]);
  });

  it("Run Now answers the run's CheckResult, passing or failing", async () => {
    const passed = (await call('POST', `/api/canary/run/check/${ids['open-port']}`)).json();
    expect(contractProblems(passed, RUN_RESULT)).toEqual([]);
    expect(passed).toMatchObject({ name: 'open-port', pass: true, namespace: 'shop', description: 'the shop database', labels: { tier: 'db' } });
    const failed = (await call('POST', `/api/canary/run/check/${ids['closed-port']}`)).json();
    expect(contractProblems(failed, RUN_RESULT)).toEqual([]);
    expect(failed).toMatchObject({ name: 'closed-port', pass: false, message: expect.stringContaining('could not connect') });
  });
});
