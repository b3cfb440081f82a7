/**
 * Values the expression engines share, so a variable means the same thing in CEL and in a Go template:
 * http's `sslAge` and `elapsed` are Go durations in canary-checker, compared in CEL
 * (`sslAge > Duration('7d')`) and printed by templates as Go prints them (`{{.sslAge}}` → `167h59m0s`).
 * Timestamps are JS `Date`s; numbers, strings, booleans, lists and maps are plain JS values.
 */
export class GoDuration {
  constructor(readonly nanoseconds: bigint) {}

  static ofMilliseconds(ms: number): GoDuration {
    return new GoDuration(BigInt(Math.round(ms * 1_000_000)));
  }

  get milliseconds(): number {
    return Number(this.nanoseconds) / 1_000_000;
  }

  /** Go's time.Duration.String(): 72h3m0.5s, 1.5ms, 0s. */
  toString(): string {
    return formatGoDuration(this.nanoseconds);
  }

  toJSON(): string {
    return this.toString();
  }
}

/** Trims a fraction's trailing zeros: 500000000 of 9 digits → ".5". */
function fraction(value: bigint, digits: number): string {
  if (value === 0n) return '';
  const text = value.toString().padStart(digits, '0').replace(/0+$/, '');
  return `.${text}`;
}

/** Go's time.Duration.String() for a number of nanoseconds. */
export function formatGoDuration(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return '0s';
  const sign = nanoseconds < 0n ? '-' : '';
  const abs = nanoseconds < 0n ? -nanoseconds : nanoseconds;
  if (abs < 1_000n) return `${sign}${abs}ns`;
  if (abs < 1_000_000n) return `${sign}${abs / 1_000n}${fraction(abs % 1_000n, 3)}µs`;
  if (abs < 1_000_000_000n) return `${sign}${abs / 1_000_000n}${fraction(abs % 1_000_000n, 6)}ms`;
  const seconds = abs / 1_000_000_000n;
  const rest = `${seconds % 60n}${fraction(abs % 1_000_000_000n, 9)}s`;
  const minutes = seconds / 60n;
  if (minutes === 0n) return `${sign}${rest}`;
  const hours = minutes / 60n;
  if (hours === 0n) return `${sign}${minutes % 60n}m${rest}`;
  return `${sign}${hours}h${minutes % 60n}m${rest}`;
}
