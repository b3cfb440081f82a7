import { Duration } from '@marcbachmann/cel-js/evaluator';
import { parseDuration } from '../../units';
import { formatGoDuration } from '../values';
import { durationFromNanos, durationNanos, fail, toStr, typeName, type Registrar } from './support';
import { parseTime } from '../template/gotime-parse';
import { humanDurationText, humanSizeText, stripsZeroUnits } from '../shared/human';

const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
const DAY = 24n * HOUR;
const WEEK = 7n * DAY;

/**
 * gomplate's HumanDuration (a fork of maze.io/duration): up to a day as Go prints it, over a day as
 * 3d2h6m, over a week as 6w0d0h, with zero minutes and seconds left out (1h0m0s → 1h). gomplate strips
 * them with a text replace that also eats the 0 of 10s; here only whole zero units go.
 */
export function humanDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const text = humanDurationText(nanos);
  if (!stripsZeroUnits(nanos)) return text;
  return text.replace(/(^|[a-zµ])0s$/, '$1').replace(/(^|[a-zµ])0m$/, '$1').replace(/(^|[a-zµ])0s$/, '$1') || '0s';
}

/** gomplate's HumanSize (CloudFoundry bytefmt): 120.6K, 1M, 0B. */
export function humanSize(value: unknown): string {
  let bytes: bigint;
  if (typeof value === 'bigint') bytes = BigInt.asUintN(64, value);
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail(`HumanSize: expected a number of bytes, got ${value}`);
    bytes = BigInt.asUintN(64, BigInt(Math.trunc(value)));
  }
  else if (typeof value === 'string') {
    if (!/^\d+$/.test(value)) return 'NaN';
    bytes = BigInt(value);
  } else return fail(`HumanSize: expected a number, got ${typeName(value)}`);
  return humanSizeText(bytes);
}

function nanosOf(value: unknown, fn: string): bigint {
  if (value instanceof Duration) return durationNanos(value);
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  return fail(`${fn}: expected a duration or nanoseconds, got ${typeName(value)}`);
}

function timeOf(value: unknown, fn: string): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime()) && /^\d{4}-\d{2}-\d{2}T/.test(value)) return date;
    return fail(`${fn}: "${value}" is not an RFC 3339 time`);
  }
  return fail(`${fn}: expected a timestamp, got ${typeName(value)}`);
}

/** Go's time.ParseDuration (no days). */
function goDuration(text: string, fn: string): Duration {
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)(((\d+(\.\d*)?|\.\d+))(ns|us|µs|ms|s|m|h))*$/.test(text) && text !== '0') {
    return fail(`${fn}: invalid duration "${text}"`);
  }
  const negative = text.startsWith('-');
  const ms = parseDuration(text.replace(/^[-+]/, '')) ?? 0;
  return durationFromNanos(BigInt(Math.round(ms * 1_000_000)) * (negative ? -1n : 1n));
}

/** Seconds into the day of `HH:MM[:SS]`. */
function clock(text: string, fn: string): number {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return fail(`${fn}: "${text}" is not HH:MM or HH:MM:SS`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
}

/** Seconds into the day of a time: an RFC 3339 text's own clock, or a timestamp's UTC clock. */
function secondsOfDay(value: unknown, fn: string): number {
  if (typeof value === 'string') {
    const match = /^\d{4}-\d{2}-\d{2}[T ](\d{2}):(\d{2}):(\d{2})/.exec(value);
    if (match) return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  }
  const date = timeOf(value, fn);
  return date.getUTCHours() * 3600 + date.getUTCMinutes() * 60 + date.getUTCSeconds();
}

export function registerTime(r: Registrar): void {
  // canary-checker's Duration('7d'): Go durations plus days, weeks and years.
  // cel-go's string(timestamp): RFC 3339 in UTC with the fraction's trailing zeros dropped (Go's RFC3339Nano).
  r.env.registerFunction('string(google.protobuf.Timestamp): string', (time: Date) => {
    const iso = time.toISOString();
    return iso.replace(/\.(\d*?)0*Z$/, (_match, digits: string) => (digits ? `.${digits}Z` : 'Z'));
  });
  // cel-go's string(duration): seconds with the fraction's trailing zeros dropped (`1800s`, `1.5s`).
  r.env.registerFunction('string(google.protobuf.Duration): string', (duration: Duration) => {
    const nanos = durationNanos(duration);
    const sign = nanos < 0n ? '-' : '';
    const abs = nanos < 0n ? -nanos : nanos;
    const fraction = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
    return `${sign}${abs / 1_000_000_000n}${fraction ? `.${fraction}` : ''}s`;
  });
  r.env.registerFunction('Duration(string): google.protobuf.Duration', (text: string) => {
    const ms = parseDuration(text);
    if (ms === undefined) return fail(`Duration("${text}"): not a duration (e.g. 90s, 15m, 2h, 7d)`);
    return Duration.fromMilliseconds(ms);
  });
  r.names.add('Duration');
  r.env.registerFunction('duration(double): google.protobuf.Duration', (nanos: number) => durationFromNanos(BigInt(Math.trunc(nanos))));
  r.fn('HumanDuration', 1, (value: unknown) => humanDuration(nanosOf(value, 'HumanDuration')), 'string');
  r.fn('HumanSize', 1, (value: unknown) => humanSize(value), 'string');
  r.fn('strings.HumanDuration', 1, (value: unknown) => humanDuration(nanosOf(value, 'HumanDuration')), 'string');
  r.fn('strings.HumanSize', 1, (value: unknown) => humanSize(value), 'string');
  const age = (value: unknown) => {
    if (typeof value === 'bigint' || typeof value === 'number') return durationFromNanos(nanosOf(value, 'Age'));
    return Duration.fromMilliseconds(Date.now() - timeOf(value, 'Age').getTime());
  };
  r.fn('Age', 1, age, 'google.protobuf.Duration');
  r.fn('age', 1, age, 'google.protobuf.Duration');

  r.fn('time.Now', 0, () => new Date(), 'google.protobuf.Timestamp');
  r.fn('time.Since', 1, (t: unknown) => Duration.fromMilliseconds(Date.now() - timeOf(t, 'time.Since').getTime()), 'google.protobuf.Duration');
  r.fn('time.Until', 1, (t: unknown) => Duration.fromMilliseconds(timeOf(t, 'time.Until').getTime() - Date.now()), 'google.protobuf.Duration');
  r.fn('time.Unix', 1, (seconds: unknown) => {
    const value = typeof seconds === 'bigint' ? Number(seconds) : typeof seconds === 'number' ? seconds : Number(toStr(seconds));
    if (!Number.isFinite(value)) return fail('time.Unix: expected seconds since the epoch');
    return new Date(value * 1000);
  }, 'google.protobuf.Timestamp');
  r.fn('time.ZoneName', 0, () => new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(new Date()).find((part) => part.type === 'timeZoneName')?.value ?? 'UTC', 'string');
  r.fn('time.ZoneOffset', 0, () => BigInt(-new Date().getTimezoneOffset() * 60), 'int');
  // Go layouts (`2006-01-02`), read by the same parser the Go templates use.
  const parse = (name: string) => (layout: unknown, value: unknown, zone?: unknown) => {
    try {
      return parseTime(toStr(layout), toStr(value), zone === undefined ? undefined : toStr(zone));
    } catch (error) {
      return fail(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  r.fn('time.Parse', 2, parse('time.Parse'), 'google.protobuf.Timestamp');
  r.fn('time.ParseLocal', 2, parse('time.ParseLocal'), 'google.protobuf.Timestamp');
  r.fn('time.ParseInLocation', 3, (layout: unknown, zone: unknown, value: unknown) => parse('time.ParseInLocation')(layout, value, zone), 'google.protobuf.Timestamp');
  r.fn('time.ParseDuration', 1, (text: unknown) => goDuration(toStr(text), 'time.ParseDuration'), 'google.protobuf.Duration');
  r.fn('time.InTimeRange', 3, (t: unknown, start: unknown, end: unknown) => {
    const at = secondsOfDay(t, 'time.InTimeRange');
    const from = clock(toStr(start), 'time.InTimeRange');
    const to = clock(toStr(end), 'time.InTimeRange');
    return from <= to ? at >= from && at <= to : at >= from || at <= to;
  }, 'bool');
  for (const [name, nanos] of [['Nanosecond', 1n], ['Microsecond', 1000n], ['Millisecond', 1_000_000n], ['Second', SECOND], ['Minute', MINUTE], ['Hour', HOUR]] as const) {
    r.namespaceValue('time', name, durationFromNanos(nanos));
  }
}
