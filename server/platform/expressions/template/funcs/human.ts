import { printV } from '../fmt';
import { asDuration, floatToInt } from '../kinds';
import { formatFloat } from '../strconv';

const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
const DAY = 24n * HOUR;
const WEEK = 7n * DAY;

/** fmtFrac of Go's Duration.String(): ".5" for the fraction digits that are not zero. */
function fraction(value: bigint, digits: number): { text: string; rest: bigint } {
  let v = value;
  let text = '';
  let print = false;
  for (let index = 0; index < digits; index++) {
    const digit = v % 10n;
    print = print || digit !== 0n;
    if (print) text = String(digit) + text;
    v /= 10n;
  }
  return { text: print ? `.${text}` : '', rest: v };
}

/**
 * flanksource/gomplate's strings.Duration.String(): weeks, days, hours for long durations, Go's form
 * below a day, then every "0s" and "0m" removed from the text. That last step is gomplate's, bugs
 * included: 10s reads "1" and 20m0s reads "2", and this keeps it so the output matches canary-checker.
 */
export function humanDurationOf(nanoseconds: bigint): string {
  const neg = nanoseconds < 0n;
  let u = neg ? -nanoseconds : nanoseconds;
  let text: string;
  if (u < SECOND) {
    if (u === 0n) return '0s';
    let unit: string;
    let prec: number;
    if (u < 1_000n) [unit, prec] = ['ns', 0];
    else if (u < 1_000_000n) [unit, prec] = ['µs', 3];
    else [unit, prec] = ['ms', 6];
    const { text: frac, rest } = fraction(u, prec);
    text = `${rest}${frac}${unit}`;
  } else if (u > WEEK) {
    u /= HOUR;
    text = `${u % 24n}h`;
    u /= 24n;
    if (u > 0n) {
      text = `${u % 7n}d${text}`;
      u /= 7n;
      if (u > 0n) text = `${u}w${text}`;
    }
  } else if (u > DAY) {
    u /= MINUTE;
    text = `${u % 60n}m`;
    u /= 60n;
    if (u > 0n) {
      text = `${u % 24n}h${text}`;
      u /= 24n;
      if (u > 0n) text = `${u}d${text}`;
    }
  } else {
    const { text: frac, rest } = fraction(u, 9);
    u = rest;
    text = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      text = `${u % 60n}m${text}`;
      u /= 60n;
      if (u > 0n) text = `${u}h${text}`;
    }
  }
  if (neg) text = `-${text}`;
  return text.replaceAll('0s', '').replaceAll('0m', '');
}

/** gomplate's humanDuration: int64 and float64 are nanoseconds, durations themselves; "" for the rest. */
export function humanDuration(value: unknown): string {
  if (typeof value === 'bigint') return humanDurationOf(value);
  if (typeof value === 'number') return humanDurationOf(floatToInt(value));
  const duration = asDuration(value);
  return duration ? humanDurationOf(duration.nanoseconds) : '';
}

const units: [bigint, string][] = [
  [1n << 60n, 'E'],
  [1n << 50n, 'P'],
  [1n << 40n, 'T'],
  [1n << 30n, 'G'],
  [1n << 20n, 'M'],
  [1n << 10n, 'K'],
  [1n, 'B'],
];

/** gomplate's humanSize (cloudfoundry's ByteSize): 10M, 12.5K, 0B; "NaN" for text that is not a count. */
export function humanBytes(value: unknown): string {
  let bytes: bigint;
  if (typeof value === 'bigint') bytes = BigInt.asUintN(64, value);
  else if (typeof value === 'number') bytes = BigInt.asUintN(64, floatToInt(value));
  else if (typeof value === 'string') {
    if (!/^\d+$/.test(value) || BigInt(value) > 18446744073709551615n) return 'NaN';
    bytes = BigInt(value);
  } else {
    return `unknown type: ${printV(value ?? null)} = %!t(${value === undefined || value === null ? '<nil>' : typeof value})`;
  }
  if (bytes === 0n) return '0B';
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const text = formatFloat(Number(bytes) / Number(size), 'f', 1);
      return `${text.endsWith('.0') ? text.slice(0, -2) : text}${unit}`;
    }
  }
  return '0B';
}
