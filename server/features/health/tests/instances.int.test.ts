import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget, type Target } from '../../../../bench/_target';
import { createTestApp, type TestApp } from '../../../../test/app';
import { backgroundWork, BackgroundWork } from '../../../platform/jobs';
import { inTransaction } from '../../../platform/jobs/db';
import { counterValue, startTestRuntime, type TestRuntime } from '../../../platform/jobs/testing';
import { saveCanary } from '../canaries';

/**
 * Three instances on one database share the checks of several canaries (docs/OPERATIONS.md "Several
 * instances"): every check runs once per slot (none twice, none missed), the canaries spread evenly over
 * the instances, and when one instance stops its canaries are run by the others from the next slot on.
 * Each instance is the health feature's canary worker on a runtime of its own (its own pool, metrics and
 * instance id), as `serve` runs it; they share this process, which on a busy machine starts in seconds
 * where three `serve` processes from the sources take minutes (bench/instances.ts runs real processes).
 */
const CANARIES = 12;
const PER_CANARY = 5;
const CHECKS = CANARIES * PER_CANARY;
const INTERVAL_MS = 5_000;

let t: TestApp;
let target: Target;
const runtimes: TestRuntime[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startInstance(): Promise<TestRuntime> {
  const canaries = backgroundWork.scheduledRows('Canary');
  if (!canaries) throw new Error('the health feature registers no canary worker');
  const runtime = await startTestRuntime(t.db.url, new BackgroundWork().rows(canaries));
  runtimes.push(runtime);
  return runtime;
}

/** Canary runs this instance finished so far. */
const canaryRuns = (instance: TestRuntime) => counterValue(instance.metrics, 'jobRuns', { name: 'Canary' });

/** For each check, the number of arrivals in each slot of [from, to) (slots on that check's own phase). */
function perSlot(from: number, to: number): { doubled: number; missed: number; counted: number } {
  let doubled = 0;
  let missed = 0;
  let counted = 0;
  for (let n = 0; n < CHECKS; n += 1) {
    const seen = (target.arrivals.get(n) ?? []).filter((at) => at >= from && at < to).sort((a, b) => a - b);
    // Consecutive runs of one check are one interval apart: closer is a slot run twice, farther a slot missed.
    for (let i = 1; i < seen.length; i += 1) {
      const gap = (seen[i] ?? 0) - (seen[i - 1] ?? 0);
      counted += 1;
      if (gap < INTERVAL_MS / 2) doubled += 1;
      else if (gap > INTERVAL_MS * 1.5) missed += Math.round(gap / INTERVAL_MS) - 1;
    }
    // A check that did not run at all in the window misses every slot of it.
    if (seen.length === 0) missed += Math.floor((to - from) / INTERVAL_MS);
  }
  return { doubled, missed, counted };
}

beforeAll(async () => {
  t = await createTestApp();
  target = await startTarget(0);
  for (let canary = 0; canary < CANARIES; canary += 1) {
    const http = Array.from({ length: PER_CANARY }, (_, i) => {
      const n = canary * PER_CANARY + i;
      return { name: `endpoint-${n}`, url: `http://127.0.0.1:${target.port}/m/${n}`, responseCodes: [200] };
    });
    await inTransaction(t.db.pool, (client) =>
      saveCanary(client, { name: `shared-${String(canary).padStart(2, '0')}`, namespace: 'instances', labels: {}, spec: { schedule: `@every ${INTERVAL_MS / 1000}s`, http }, source: 'ConfigFile' }),
    );
  }
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.stop();
  await target?.close();
  await t?.close();
});

describe('three instances on one database', () => {
  it('run each check once per slot, spread the canaries evenly, and take over a stopped instance’s share within one interval', { timeout: 180_000 }, async () => {
    const all = [await startInstance(), await startInstance(), await startInstance()];
    // Warm-up: every instance has registered (job_instances) and each check has run at least once.
    for (const deadline = Date.now() + 30_000; ; ) {
      const live = (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM job_instances WHERE expires_at > now()')).rows[0]?.n ?? 0;
      const ran = Array.from({ length: CHECKS }, (_, n) => n).every((n) => (target.arrivals.get(n)?.length ?? 0) > 0);
      if (live === 3 && ran) break;
      if (Date.now() > deadline) throw new Error(`warm-up: ${live} instances live, checks run: ${[...target.arrivals.keys()].length} of ${CHECKS}`);
      await sleep(250);
    }
    await sleep(INTERVAL_MS);

    // Three slots with all three instances.
    const before = await Promise.all(all.map(canaryRuns));
    const from = Date.now();
    await sleep(3 * INTERVAL_MS);
    const shared = Date.now();
    const runs = (await Promise.all(all.map(canaryRuns))).map((count, i) => count - (before[i] ?? 0));
    const checksRun = perSlot(from, shared);
    expect(checksRun, 'three slots, three instances').toMatchObject({ doubled: 0, missed: 0 });
    expect(checksRun.counted).toBeGreaterThanOrEqual(CHECKS * 2);
    // Each instance ran its share of the canary runs: within 20 % of the mean.
    const mean = runs.reduce((a, b) => a + b, 0) / runs.length;
    expect(mean).toBeGreaterThanOrEqual((3 * CANARIES) / 3 - 2);
    for (const count of runs) expect(Math.abs(count - mean), `canary runs per instance: ${runs.join(', ')}`).toBeLessThanOrEqual(0.2 * mean);

    // Stop one: the two others run its canaries from its next slot on, so no check misses a slot.
    const [stopped, ...others] = all as [TestRuntime, TestRuntime, TestRuntime];
    const othersBefore = await Promise.all(others.map(canaryRuns));
    await stopped.stop();
    const stoppedAt = Date.now();
    await sleep(3 * INTERVAL_MS);
    const end = Date.now();
    const afterStop = perSlot(from, end);
    expect(afterStop, 'through the stop').toMatchObject({ doubled: 0, missed: 0 });
    // Within one interval of the stop (and a second of slack for a busy machine) every check ran again.
    const late = Array.from({ length: CHECKS }, (_, n) => n).filter((n) => !(target.arrivals.get(n) ?? []).some((at) => at >= stoppedAt && at < stoppedAt + INTERVAL_MS + 1000));
    expect(late, 'checks that did not run within one interval after the stop').toEqual([]);
    const othersRuns = (await Promise.all(others.map(canaryRuns))).map((count, i) => count - (othersBefore[i] ?? 0));
    expect(othersRuns.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(CANARIES * 2);

    for (const instance of others) await instance.stop();
    expect((await t.db.pool.query('SELECT 1 FROM canaries WHERE lease_owner IS NOT NULL')).rowCount).toBe(0);
  });
});
