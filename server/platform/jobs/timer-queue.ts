/**
 * Many due times, one timer: a binary min-heap of (time, sequence) with a single setTimeout armed for the
 * earliest. Thousands of checks each waiting for their own instant cost one timer and O(log n) per entry,
 * not one libuv timer each re-armed every slot. Entries due at the same instant fire in the order they
 * were added. Times are milliseconds since the epoch (Date.now()), as the database's slots are.
 */
interface Entry {
  time: number;
  seq: number;
  fire: () => void;
  cancelled: boolean;
}

/** A timer that fires up to this early still counts as on time: libuv's clock has whole milliseconds. */
const EARLY_TOLERANCE_MILLIS = 1;

export class TimerQueue {
  private readonly heap: Entry[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  /** Entries waiting (cancelled ones included until they reach the top). */
  get size(): number {
    return this.heap.length;
  }

  /** Calls `fire` at `time` (at once when it has passed); answers a function that cancels it. */
  at(time: number, fire: () => void): () => void {
    const entry: Entry = { time, seq: (this.seq += 1), fire, cancelled: false };
    this.push(entry);
    this.arm();
    return () => {
      entry.cancelled = true;
    };
  }

  /**
   * Waits for instants until `signal` aborts: `until(time)` resolves true at `time`, or false as soon as the
   * signal aborts (the entry is dropped). One listener on the signal for all of them, however many wait.
   */
  waiter(signal?: AbortSignal): { until(time: number): Promise<boolean> } {
    const pending = new Map<() => void, (due: boolean) => void>();
    signal?.addEventListener(
      'abort',
      () => {
        for (const [cancel, resolve] of pending) {
          cancel();
          resolve(false);
        }
        pending.clear();
      },
      { once: true },
    );
    return {
      until: (time) => {
        if (signal?.aborted) return Promise.resolve(false);
        return new Promise((resolve) => {
          const cancel = this.at(time, () => {
            pending.delete(cancel);
            resolve(true);
          });
          pending.set(cancel, resolve);
        });
      },
    };
  }

  private arm(): void {
    const head = this.heap[0];
    if (!head) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.armedFor = Number.POSITIVE_INFINITY;
      return;
    }
    if (this.timer && this.armedFor <= head.time) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = head.time;
    this.timer = setTimeout(() => this.fireDue(), Math.max(0, head.time - Date.now()));
  }

  private fireDue(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now() + EARLY_TOLERANCE_MILLIS;
    const due: Entry[] = [];
    for (let head = this.heap[0]; head && head.time <= now; head = this.heap[0]) due.push(this.pop());
    // Re-armed before anything runs, so an entry that throws cannot stop the queue.
    this.arm();
    for (const entry of due) {
      if (!entry.cancelled) entry.fire();
    }
  }

  private static before(a: Entry, b: Entry): boolean {
    return a.time < b.time || (a.time === b.time && a.seq < b.seq);
  }

  private push(entry: Entry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = heap[parent];
      if (!up || !TimerQueue.before(entry, up)) break;
      heap[i] = up;
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (!top || !last) throw new Error('pop from an empty timer queue');
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = last;
      let at = -1;
      const l = heap[left];
      const r = heap[right];
      if (l && TimerQueue.before(l, smallest)) {
        smallest = l;
        at = left;
      }
      if (r && TimerQueue.before(r, smallest)) {
        smallest = r;
        at = right;
      }
      if (at < 0) break;
      heap[i] = smallest;
      i = at;
    }
    heap[i] = last;
    return top;
  }
}
