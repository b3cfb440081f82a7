import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { backgroundWork, BackgroundWork } from '../../../platform/jobs';
import { startTestRuntime } from '../../../platform/jobs/testing';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { canaryKind } from '../canary-kind';
import { checkTimes } from '../check-times';
import { runCanary } from '../run-canary';
import { listen, close } from '../testing/check-harness';

/**
 * Each check of a scheduled canary starts at its own instant within the canary's slot (docs/HEALTH.md
 * "When a check runs"), measured from a real HTTP target's side: a slow neighbour does not move it, and
 * dependsOn still orders the checks that need it.
 */
let t: TestApp;
let target: http.Server;
let base = '';
/** Arrival times of the requests per path. */
const arrivals = new Map<string, number[]>();
/** When each path's answer was sent. */
const answered = new Map<string, number[]>();

const SLOW_MS = 2500;

beforeAll(async () => {
  t = await createTestApp();
  target = http.createServer((req, res) => {
    const at = Date.now();
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    arrivals.set(path, [...(arrivals.get(path) ?? []), at]);
    const answer = (status: number) => {
      answered.set(path, [...(answered.get(path) ?? []), Date.now()]);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
    };
    if (path.startsWith('/slow/')) setTimeout(() => answer(200), SLOW_MS);
    else if (path.startsWith('/missing/')) answer(404);
    else answer(200);
  });
  base = `http://127.0.0.1:${await listen(target)}`;
});

afterAll(async () => {
  await close(target);
  await t?.close();
});

const apply = async (text: string) => {
  const applied = await applyDocuments(t.db.pool, [canaryKind], [{ file: 'canary.yaml', text }], 'ConfigFile', createLogger('silent'));
  expect(applied[0]).toMatchObject({ ok: true });
};

async function canaryOf(name: string): Promise<{ id: string; next_run_at: Date; schedule: string }> {
  const { rows } = await t.db.pool.query<{ id: string; next_run_at: Date; schedule: string }>('SELECT id, next_run_at, schedule FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name]);
  const row = rows[0];
  if (!row) throw new Error(`no canary ${name}`);
  return row;
}

describe('when each check runs', () => {
  it('starts every check at its own instant of each slot, however long its neighbours take', async () => {
    // Six checks that answer in 2.5 s, first in the canary's order, and six that answer at once: run five at
    // a time in that order, the fast ones would wait for the slow ones; each on its own time, none waits.
    const slow = Array.from({ length: 6 }, (_, i) => `    - {name: a-slow-${i}, url: "${base}/slow/${i}", responseCodes: [200]}`);
    const fast = Array.from({ length: 6 }, (_, i) => `    - {name: b-fast-${i}, url: "${base}/fast/${i}", responseCodes: [200]}`);
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: neighbours, namespace: timing}
spec:
  schedule: "@every 4s"
  http:
${[...slow, ...fast].join('\n')}
`);
    const canary = await canaryOf('neighbours');
    // The health feature's own worker for canaries (as `serve` runs it), on a runtime of its own.
    const canaries = backgroundWork.scheduledRows('Canary');
    if (!canaries) throw new Error('the health feature registers no canary worker');
    const runtime = await startTestRuntime(t.db.url, new BackgroundWork().rows(canaries));
    const started = Date.now();
    try {
      await expect.poll(() => Math.min(...Array.from({ length: 6 }, (_, i) => arrivals.get(`/fast/${i}`)?.length ?? 0)), { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(3);
    } finally {
      await runtime.stop();
    }
    // The slot grid is the canary's (next_run_at keeps its phase); each check's instant is its offset in it.
    const times = checkTimes(canary.id, canary.schedule, canary.next_run_at, 12);
    const interval = times.intervalMillis;
    expect(interval).toBe(4000);
    const phase = canary.next_run_at.getTime() % interval;
    for (const name of [...Array.from({ length: 6 }, (_, i) => `b-fast-${i}`), ...Array.from({ length: 6 }, (_, i) => `a-slow-${i}`)]) {
      const path = `/${name.slice(2).replace('-', '/')}`;
      const offset = times.startOf(`http/${name}`) - canary.next_run_at.getTime();
      const seen = (arrivals.get(path) ?? []).filter((at) => at >= started);
      expect(seen.length, name).toBeGreaterThanOrEqual(name.includes('fast') ? 3 : 2);
      for (const at of seen) {
        const slot = Math.round((at - offset - phase) / interval) * interval + phase;
        // Never before its instant; after it only by what a busy 2-core machine adds (far from the 2.5 s a slow neighbour would add).
        expect(at - (slot + offset), `${name} behind its instant`).toBeGreaterThanOrEqual(-2);
        expect(at - (slot + offset), `${name} behind its instant`).toBeLessThan(1000);
      }
      // Each slot once, one interval apart.
      for (let i = 1; i < seen.length; i += 1) expect(Math.abs((seen[i] ?? 0) - (seen[i - 1] ?? 0) - interval), `${name} interval`).toBeLessThan(1000);
    }
    // The check's instants lie within half the interval after a lead of a tenth of it (400 ms here).
    const offsets = Array.from({ length: 6 }, (_, i) => times.startOf(`http/b-fast-${i}`) - canary.next_run_at.getTime());
    for (const offset of offsets) {
      expect(offset).toBeGreaterThanOrEqual(400);
      expect(offset).toBeLessThan(400 + 12 * 50);
    }
  });

  it('runs a check after the checks it depends on, and not at all when one of them failed', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ordered, namespace: timing}
spec:
  schedule: "@every 10s"
  http:
    - {name: first, url: "${base}/slow/first", responseCodes: [200]}
    - {name: second, url: "${base}/fast/second", responseCodes: [200], dependsOn: [first]}
    - {name: third, url: "${base}/fast/third", responseCodes: [200], dependsOn: [second]}
    - {name: broken, url: "${base}/missing/broken", responseCodes: [200]}
    - {name: after-broken, url: "${base}/fast/after-broken", responseCodes: [200], dependsOn: [broken]}
`);
    const canary = await canaryOf('ordered');
    const slot = new Date(Date.now());
    // A scheduled run answers no runs: its results are stored.
    expect(await runCanary({ pool: t.db.pool, log: createLogger('silent') }, canary.id, new AbortController().signal, { slot: { at: slot, schedule: canary.schedule } })).toEqual([]);
    const { rows: results } = await t.db.pool.query<{ name: string; pass: boolean; message: string }>(
      'SELECT c.name, s.status AS pass, s.message FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = $1',
      [canary.id],
    );
    const byName = Object.fromEntries(results.map((row) => [row.name, row]));
    expect(Object.keys(byName).sort()).toEqual(['after-broken', 'broken', 'first', 'second', 'third']);
    const first = arrivals.get('/slow/first')?.[0] ?? NaN;
    const firstAnswered = answered.get('/slow/first')?.[0] ?? NaN;
    const second = arrivals.get('/fast/second')?.[0] ?? NaN;
    const third = arrivals.get('/fast/third')?.[0] ?? NaN;
    // first at its own instant; second only once first has answered; third after second.
    const times = checkTimes(canary.id, canary.schedule, slot, 5);
    expect(first - times.startOf('http/first')).toBeGreaterThanOrEqual(-2);
    expect(first - times.startOf('http/first')).toBeLessThan(1000);
    expect(second).toBeGreaterThanOrEqual(firstAnswered);
    expect(second - firstAnswered).toBeLessThan(1000);
    expect(third).toBeGreaterThanOrEqual(second);
    expect(byName.second).toMatchObject({ pass: true });
    expect(byName.third).toMatchObject({ pass: true });
    // A check whose dependency failed is recorded as not run, and the target never hears from it.
    expect(byName.broken).toMatchObject({ pass: false });
    expect(byName['after-broken']).toMatchObject({ pass: false, message: 'not run: it depends on "broken", which failed' });
    expect(arrivals.get('/fast/after-broken')).toBeUndefined();
    // The results are stored, and each check knows its next instant: the same offset in the next slot.
    const { rows } = await t.db.pool.query<{ name: string; next_runtime: Date | null; results: number }>(
      'SELECT c.name, c.next_runtime, (SELECT count(*)::int FROM check_statuses s WHERE s.check_id = c.id) AS results FROM checks c WHERE c.canary_id = $1 ORDER BY c.name',
      [canary.id],
    );
    expect(rows.map((row) => [row.name, row.results])).toEqual([['after-broken', 1], ['broken', 1], ['first', 1], ['second', 1], ['third', 1]]);
    expect(rows.find((row) => row.name === 'first')?.next_runtime?.getTime()).toBe(times.startOf('http/first') + times.intervalMillis);
  });

  it('leaves out the checks whose instant had not come when the run was stopped', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: stopped, namespace: timing}
spec:
  schedule: "@every 1h"
  http:
    - {name: later, url: "${base}/fast/later", responseCodes: [200]}
`);
    const canary = await canaryOf('stopped');
    const controller = new AbortController();
    // An hourly slot's lead is a second: the check waits for it, and the instance stops first.
    const running = runCanary({ pool: t.db.pool, log: createLogger('silent') }, canary.id, controller.signal, { slot: { at: new Date(), schedule: canary.schedule } });
    setTimeout(() => controller.abort(new Error('the instance is shutting down')), 200);
    expect(await running).toEqual([]);
    expect(arrivals.get('/fast/later')).toBeUndefined();
  });
});
