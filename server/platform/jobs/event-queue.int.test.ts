import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { createKysely } from '../db/pool';
import { inTransaction } from './db';
import { claimEvents, publish, type QueuedEvent } from './event-queue';
import { BackgroundWork } from './registry';
import { counterValue, eventually, sleep, startTestRuntime, type TestRuntime } from './testing';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query('DELETE FROM event_queue');
});

async function queued(): Promise<Array<{ name: string; attempts: number; max_attempts: number; error: string | null; properties: Record<string, unknown> }>> {
  return (await db.pool.query('SELECT name, attempts, max_attempts, error, properties FROM event_queue ORDER BY created_at')).rows;
}

describe('publish', () => {
  it('exists only if the caller transaction commits (pg client and Kysely)', async () => {
    await expect(
      inTransaction(db.pool, async (client) => {
        await publish(client, 'check.failed', { id: 1 });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    const kysely = createKysely<Record<string, never>>(db.pool);
    await kysely
      .transaction()
      .execute(async (trx) => {
        await publish(trx, 'check.failed', { id: 2 });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await queued()).toEqual([]);

    await inTransaction(db.pool, (client) => publish(client, 'check.failed', { id: 3 }, { priority: 2, maxAttempts: 3 }));
    await kysely.transaction().execute((trx) => publish(trx, 'check.passed', { id: 4 }));
    expect(await queued()).toEqual([
      { name: 'check.failed', attempts: 0, max_attempts: 3, error: null, properties: { id: 3 } },
      { name: 'check.passed', attempts: 0, max_attempts: 5, error: null, properties: { id: 4 } },
    ]);
  });

  it('refuses a bad name or attempts', async () => {
    await expect(publish(db.pool, 'has space', {})).rejects.toThrow(/event name/);
    await expect(publish(db.pool, 'ok', {}, { maxAttempts: 0 })).rejects.toThrow(/maxAttempts/);
  });
});

describe('claiming events', () => {
  it('takes higher priority first, skips delayed events and events locked by others', async () => {
    await publish(db.pool, 'e', { n: 'low' });
    await publish(db.pool, 'e', { n: 'high' }, { priority: 5 });
    await publish(db.pool, 'e', { n: 'later' }, { delay: 60_000 });
    await publish(db.pool, 'other', { n: 'other' });
    const first = await claimEvents(db.pool, ['e'], 'a', 1, 60_000);
    expect(first.events.map((event) => event.properties.n)).toEqual(['high']);
    const second = await claimEvents(db.pool, ['e'], 'b', 10, 60_000);
    expect(second.events.map((event) => event.properties.n)).toEqual(['low']);
    expect((await claimEvents(db.pool, ['e'], 'c', 10, 60_000)).events).toEqual([]);
  });

  it('counts an expired lock as a failed attempt of a dead instance', async () => {
    await publish(db.pool, 'e', {}, { maxAttempts: 2 });
    await claimEvents(db.pool, ['e'], 'dead-1', 1, 1);
    await sleep(20);
    const retaken = await claimEvents(db.pool, ['e'], 'dead-2', 1, 1);
    expect(retaken.events[0]?.attempt).toBe(2);
    expect(await queued()).toMatchObject([{ attempts: 1, error: 'the instance handling it stopped' }]);
    await sleep(20);
    // The second death exhausts it: kept with its error, not handed out again.
    const last = await claimEvents(db.pool, ['e'], 'alive', 1, 60_000);
    expect(last.events).toEqual([]);
    expect(last.exhausted).toHaveLength(1);
  });
});

describe('consumers', () => {
  it('handle each event exactly once across four instances on separate pools, and delete it', async () => {
    const handled: string[] = [];
    const runtimes: TestRuntime[] = [];
    for (let i = 0; i < 4; i += 1) {
      const registry = new BackgroundWork();
      registry.consumer({
        name: 'counter',
        events: ['count.me'],
        batchSize: 5,
        async handler(event) {
          handled.push(String(event.properties.n));
          await sleep(2);
        },
      });
      runtimes.push(await startTestRuntime(db.url, registry));
    }
    try {
      for (let n = 0; n < 200; n += 1) await publish(db.pool, 'count.me', { n });
      await eventually(async () => (handled.length >= 200 ? true : undefined), 20_000, '200 events');
      await sleep(300);
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.stop()));
    }
    expect(handled).toHaveLength(200);
    expect(new Set(handled).size).toBe(200);
    expect(await queued()).toEqual([]);
    let ok = 0;
    for (const runtime of runtimes) ok += await counterValue(runtime.metrics, 'eventsProcessed', { name: 'count.me', result: 'ok' });
    expect(ok).toBe(200);
  });

  it('deliver one event to every subscribed consumer once each, across two instances, with failures kept per consumer', async () => {
    const handled = { steady: [] as string[], broken: [] as string[] };
    const runtimes: TestRuntime[] = [];
    for (let i = 0; i < 2; i += 1) {
      const registry = new BackgroundWork();
      registry.consumer({ name: 'steady', events: ['fan.out'], batchSize: 5, handler: async (event) => void handled.steady.push(String(event.properties.n)) });
      registry.consumer({
        name: 'broken',
        events: ['fan.out'],
        maxAttempts: 1,
        async handler(event) {
          handled.broken.push(String(event.properties.n));
          throw new Error('the peer is down');
        },
      });
      runtimes.push(await startTestRuntime(db.url, registry));
    }
    try {
      await eventually(async () => ((await db.pool.query("SELECT count(*)::int AS n FROM event_consumers WHERE 'fan.out' = ANY(events)")).rows[0].n === 2 ? true : undefined), 5_000, 'two subscriptions');
      const ids = new Set<string>();
      for (let n = 0; n < 60; n += 1) ids.add(await publish(db.pool, 'fan.out', { n }));
      expect(ids.size).toBe(60);
      await eventually(async () => (handled.steady.length >= 60 && handled.broken.length >= 60 ? true : undefined), 20_000, 'both consumers');
      await sleep(300);
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.stop()));
      await db.pool.query("DELETE FROM event_consumers WHERE name IN ('steady', 'broken')");
    }
    expect(handled.steady.sort()).toEqual(Array.from({ length: 60 }, (_, n) => String(n)).sort());
    expect(handled.broken.sort()).toEqual(Array.from({ length: 60 }, (_, n) => String(n)).sort());
    // The steady consumer's deliveries are done and gone; the broken one's stay, failed, with its error.
    const left = (await db.pool.query('SELECT consumer, count(*)::int AS n, min(error) AS error FROM event_queue GROUP BY consumer')).rows;
    expect(left).toEqual([{ consumer: 'broken', n: 60, error: 'the peer is down' }]);
    const summary = (await db.pool.query("SELECT consumer, pending, failed FROM event_queue_summary WHERE name = 'fan.out'")).rows;
    expect(summary).toEqual([{ consumer: 'broken', pending: 0, failed: 60 }]);
  });

  it('retry failures with exponential backoff and keep the event with its last error when attempts run out', async () => {
    const attempts: Array<{ attempt: number; at: number }> = [];
    const registry = new BackgroundWork();
    registry.consumer({
      name: 'flaky',
      events: ['flaky'],
      maxAttempts: 4,
      backoff: { initialMillis: 200, factor: 2, maxMillis: 10_000 },
      async handler(event: QueuedEvent) {
        attempts.push({ attempt: event.attempt, at: Date.now() });
        throw new Error(`attempt ${event.attempt} failed`);
      },
    });
    const runtime = await startTestRuntime(db.url, registry);
    try {
      await publish(db.pool, 'flaky', { x: 1 });
      await eventually(async () => {
        const [row] = await queued();
        return row && row.attempts >= 4 ? row : undefined;
      }, 10_000, 'four attempts');
      await sleep(600);
      expect(attempts.map((entry) => entry.attempt)).toEqual([1, 2, 3, 4]);
      const gaps = attempts.slice(1).map((entry, index) => entry.at - (attempts[index]?.at ?? 0));
      // 200, 400, 800 ms apart (with slack for a loaded machine).
      gaps.forEach((gap, index) => {
        const expected = 200 * 2 ** index;
        expect(gap).toBeGreaterThanOrEqual(expected - 20);
        expect(gap).toBeLessThan(expected + 600);
      });
      expect(await queued()).toEqual([{ name: 'flaky', attempts: 4, max_attempts: 4, error: 'attempt 4 failed', properties: { x: 1 } }]);
      const summary = (await db.pool.query("SELECT pending, retrying, failed, most_common_error FROM event_queue_summary WHERE name = 'flaky'")).rows[0];
      expect(summary).toEqual({ pending: 0, retrying: 0, failed: 1, most_common_error: 'attempt 4 failed' });
      expect(await counterValue(runtime.metrics, 'eventsProcessed', { name: 'flaky', result: 'retry' })).toBe(3);
      expect(await counterValue(runtime.metrics, 'eventsProcessed', { name: 'flaky', result: 'failed' })).toBe(1);
    } finally {
      await runtime.stop();
    }
  });

  it('are woken by NOTIFY on commit, not by their poll', async () => {
    let handledAt = 0;
    const registry = new BackgroundWork();
    registry.consumer({ name: 'fast', events: ['wake.me'], handler: async () => void (handledAt = Date.now()) });
    const runtime = await startTestRuntime(db.url, registry, { pollMillis: 60_000 });
    try {
      await sleep(300);
      const published = Date.now();
      await inTransaction(db.pool, (client) => publish(client, 'wake.me', {}));
      await eventually(async () => (handledAt > 0 ? true : undefined), 5_000, 'the event');
      expect(handledAt - published).toBeLessThan(1_000);
    } finally {
      await runtime.stop();
    }
  });

  it('get their LISTEN connection back after the database drops it', async () => {
    let handled = 0;
    const registry = new BackgroundWork();
    registry.consumer({ name: 'relisten', events: ['after.drop'], handler: async () => void (handled += 1) });
    const runtime = await startTestRuntime(db.url, registry, { pollMillis: 60_000 });
    try {
      await sleep(300);
      const killed = await db.pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      );
      expect(killed.rowCount).toBe(1);
      await sleep(1_500); // the first reconnect comes after 500 ms
      const published = Date.now();
      await publish(db.pool, 'after.drop', {});
      await eventually(async () => (handled > 0 ? true : undefined), 5_000, 'the event after reconnect');
      expect(Date.now() - published).toBeLessThan(1_000);
    } finally {
      await runtime.stop();
    }
  });

  it('handle a delayed event once it is due', async () => {
    let handledAt = 0;
    const registry = new BackgroundWork();
    registry.consumer({ name: 'delayed', events: ['later'], handler: async () => void (handledAt = Date.now()) });
    const runtime = await startTestRuntime(db.url, registry, { pollMillis: 60_000 });
    try {
      const published = Date.now();
      await publish(db.pool, 'later', {}, { delay: 700 });
      await eventually(async () => (handledAt > 0 ? true : undefined), 5_000, 'the delayed event');
      expect(handledAt - published).toBeGreaterThanOrEqual(650);
      expect(handledAt - published).toBeLessThan(2_000);
    } finally {
      await runtime.stop();
    }
  });
});

describe('registration after start', () => {
  it('starts a consumer registered late, and a second registration of a name swaps its handler', async () => {
    const seen: string[] = [];
    const registry = new BackgroundWork();
    const runtime = await startTestRuntime(db.url, registry);
    try {
      registry.consumer({ name: 'late', events: ['late.event'], handler: async () => void seen.push('first') });
      await publish(db.pool, 'late.event', {});
      await eventually(async () => (seen.length === 1 ? true : undefined), 5_000, 'the first handler');
      registry.consumer({ name: 'late', events: ['late.event'], handler: async () => void seen.push('second') });
      await publish(db.pool, 'late.event', {});
      await eventually(async () => (seen.length === 2 ? true : undefined), 5_000, 'the second handler');
      expect(seen).toEqual(['first', 'second']);
    } finally {
      await runtime.stop();
    }
  });
});
