import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimerQueue } from './timer-queue';

describe('TimerQueue', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2024-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires each entry at its own time, in time order, with one timer', () => {
    const queue = new TimerQueue();
    const fired: Array<[string, number]> = [];
    const start = Date.now();
    // Added out of order, many more than one: the queue holds a heap, not a list.
    const offsets = Array.from({ length: 200 }, (_, i) => (i * 7919) % 1000);
    for (const offset of offsets) queue.at(start + offset, () => fired.push([`e${offset}`, Date.now() - start]));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(fired).toHaveLength(200);
    for (const [name, at] of fired) expect(at).toBe(Number(name.slice(1)));
    expect(fired.map(([, at]) => at)).toEqual([...offsets].sort((a, b) => a - b));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fires entries of the same instant in the order they were added, and a past time at once', () => {
    const queue = new TimerQueue();
    const fired: string[] = [];
    const at = Date.now() + 50;
    for (const name of ['a', 'b', 'c']) queue.at(at, () => fired.push(name));
    queue.at(Date.now() - 10, () => fired.push('late'));
    vi.advanceTimersByTime(0);
    expect(fired).toEqual(['late']);
    vi.advanceTimersByTime(49);
    expect(fired).toEqual(['late']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['late', 'a', 'b', 'c']);
  });

  it('re-arms for an earlier entry and skips a cancelled one', () => {
    const queue = new TimerQueue();
    const fired: string[] = [];
    queue.at(Date.now() + 1000, () => fired.push('later'));
    const cancel = queue.at(Date.now() + 500, () => fired.push('cancelled'));
    queue.at(Date.now() + 100, () => fired.push('sooner'));
    cancel();
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(['sooner']);
    vi.advanceTimersByTime(900);
    expect(fired).toEqual(['sooner', 'later']);
  });

  it('keeps firing after an entry throws', () => {
    const queue = new TimerQueue();
    const fired: string[] = [];
    queue.at(Date.now() + 10, () => {
      throw new Error('boom');
    });
    queue.at(Date.now() + 20, () => fired.push('next'));
    expect(() => vi.advanceTimersByTime(10)).toThrow('boom');
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['next']);
  });

  it('a waiter resolves true when due, and false for every wait when its signal aborts first', async () => {
    const queue = new TimerQueue();
    const controller = new AbortController();
    const waiter = queue.waiter(controller.signal);
    const due = waiter.until(Date.now() + 100);
    const stopped = Array.from({ length: 50 }, (_, i) => waiter.until(Date.now() + 5000 + i));
    vi.advanceTimersByTime(100);
    await expect(due).resolves.toBe(true);
    controller.abort();
    expect(await Promise.all(stopped)).toEqual(stopped.map(() => false));
    expect(await waiter.until(Date.now() + 10)).toBe(false);
    vi.advanceTimersByTime(10_000);
  });
});
