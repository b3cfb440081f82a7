import { describe, expect, it } from 'vitest';
import { backoffMillis } from './event-queue';
import { boundedWait, Waker } from './waker';

describe('Waker', () => {
  it('ends a wait early and remembers a wake that came first', async () => {
    const waker = new Waker();
    const started = Date.now();
    const waiting = waker.wait(10_000);
    waker.wake();
    await waiting;
    expect(Date.now() - started).toBeLessThan(1_000);
    waker.wake();
    const early = Date.now();
    await waker.wait(10_000);
    expect(Date.now() - early).toBeLessThan(1_000);
  });

  it('times out on its own', async () => {
    const started = Date.now();
    await new Waker().wait(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('boundedWait', () => {
  it('keeps waits between the floor and the polling ceiling', () => {
    expect(boundedWait(undefined, 50, 10_000)).toBe(10_000);
    expect(boundedWait(-5_000, 50, 10_000)).toBe(50);
    expect(boundedWait(1_234, 50, 10_000)).toBe(1_234);
    expect(boundedWait(99_999, 50, 10_000)).toBe(10_000);
  });
});

describe('backoffMillis', () => {
  it('grows by the factor from the initial delay and stops at the cap', () => {
    const backoff = { initialMillis: 500, factor: 3, maxMillis: 10_000 };
    expect([1, 2, 3, 4, 5].map((failures) => backoffMillis(backoff, failures))).toEqual([500, 1_500, 4_500, 10_000, 10_000]);
    expect(backoffMillis({ initialMillis: 1, factor: 10, maxMillis: 60_000 }, 10_000)).toBe(60_000);
  });
});
