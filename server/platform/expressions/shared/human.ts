import { formatGoDuration } from '../values';
import { formatFloat } from '../template/strconv';

const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
const DAY = 24n * HOUR;
const WEEK = 7n * DAY;

/**
 * flanksource/gomplate's strings.Duration.String() before it strips zero units: Go's Duration.String() up
 * to a day, `3d2h6m` over a day, `6w0d0h` over a week. Each engine strips zeros its own way (see callers).
 */
export function humanDurationText(nanoseconds: bigint): string {
  const negative = nanoseconds < 0n;
  const u = negative ? -nanoseconds : nanoseconds;
  let text: string;
  if (u > WEEK) {
    const hours = u / HOUR;
    text = `${hours / 24n / 7n}w${(hours / 24n) % 7n}d${hours % 24n}h`;
  } else if (u > DAY) {
    const minutes = u / MINUTE;
    text = `${minutes / 60n / 24n}d${(minutes / 60n) % 24n}h${minutes % 60n}m`;
  } else {
    return formatGoDuration(nanoseconds);
  }
  return negative ? `-${text}` : text;
}

/** A duration of at least a second and at most a week, where gomplate strips zero minutes and seconds. */
export function stripsZeroUnits(nanoseconds: bigint): boolean {
  const u = nanoseconds < 0n ? -nanoseconds : nanoseconds;
  return u >= SECOND && u <= WEEK;
}

const UNITS: Array<[bigint, string]> = [
  [1n << 60n, 'E'],
  [1n << 50n, 'P'],
  [1n << 40n, 'T'],
  [1n << 30n, 'G'],
  [1n << 20n, 'M'],
  [1n << 10n, 'K'],
  [1n, 'B'],
];

/** gomplate's HumanSize (CloudFoundry bytefmt) of a byte count (uint64): 10M, 12.5K, 0B, with Go's rounding. */
export function humanSizeText(bytes: bigint): string {
  for (const [size, unit] of UNITS) {
    if (bytes >= size) {
      const text = formatFloat(Number(bytes) / Number(size), 'f', 1);
      return `${text.endsWith('.0') ? text.slice(0, -2) : text}${unit}`;
    }
  }
  return '0B';
}
