/**
 * A sleep that can be cut short: a worker waits for its next due time, and a notification, a finished
 * run or shutdown wakes it early. A wake with nobody waiting is remembered for the next wait.
 */
export class Waker {
  private release: (() => void) | undefined;
  private pending = false;

  wake(): void {
    if (this.release) {
      this.release();
      this.release = undefined;
    } else {
      this.pending = true;
    }
  }

  wait(millis: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.release = undefined;
        resolve();
      }, Math.max(0, millis));
      this.release = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Clamps a wait: never negative, never longer than the polling fallback. */
export function boundedWait(millis: number | undefined, floorMillis: number, ceilingMillis: number): number {
  if (millis === undefined || !Number.isFinite(millis)) return ceilingMillis;
  return Math.min(ceilingMillis, Math.max(floorMillis, millis));
}
