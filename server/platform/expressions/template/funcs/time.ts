import { parseDuration } from '../../../units';
import { GoDuration } from '../../values';
import { func } from '../define';
import { timeLayouts } from '../gotime';
import { parseTime } from '../gotime-parse';
import { FuncError, type GoFunc, GoStruct } from '../kinds';
import { parseGoInt } from '../strconv';
import { toInt64, toString } from './conv';

/**
 * gomplate's time namespace (flanksource/gomplate funcs/time.go): `time.Now`, `time.Parse`,
 * `time.ParseDuration` (with d, w and y as flanksource/commons reads them), the unit constructors
 * (`time.Second 5`), `time.Since`… and the layout constants as fields (`time.RFC3339`). The server runs
 * in UTC, as canary-checker's containers do, so Local is UTC here.
 */
const NS_PER_MS = 1_000_000n;

function unit(nanoseconds: bigint): GoFunc {
  return func(['any'], (count) => new GoDuration(BigInt.asIntN(64, nanoseconds * toInt64(count))));
}

/** gomplate's parseNum: seconds (and a fraction as nanoseconds) from a string or an integer; floats refused. */
function unixTime(value: unknown): Date {
  let seconds = 0n;
  let nanos = 0n;
  if (typeof value === 'string') {
    const parts = value.split('.');
    if (parts.length > 2) throw new FuncError(`can not parse '${value}' as a number - too many decimal points`);
    const whole = parseGoInt(parts[0] ?? '');
    if (whole === undefined) throw new FuncError(`strconv.ParseInt: parsing ${JSON.stringify(parts[0] ?? '')}: invalid syntax`);
    seconds = whole;
    if (parts.length === 2) {
      const digits = `${parts[1] ?? ''}000000000`.slice(0, 9);
      nanos = parseGoInt(digits) ?? 0n;
    }
  } else if (typeof value === 'bigint') {
    seconds = value;
  } else if (typeof value === 'number') {
    throw new FuncError(`can not parse floating point number (${value.toFixed(6)}) - use a string instead`);
  }
  return new Date(Number(seconds * 1000n + nanos / NS_PER_MS));
}

/** flanksource/commons duration.ParseDuration: Go's units plus d, w and y; a leading sign. */
function goParseDuration(text: string): GoDuration {
  const negative = text.startsWith('-');
  const body = text.replace(/^[+-]/, '');
  const ms = parseDuration(body);
  if (ms === undefined || body.trim() === '') throw new FuncError(`time: invalid duration ${JSON.stringify(text)}`);
  const nanoseconds = BigInt(Math.round(ms * 1_000_000));
  return new GoDuration(negative ? -nanoseconds : nanoseconds);
}

function timeOfDay(text: string): number {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) throw new FuncError(`cannot parse ${JSON.stringify(text)} as a time of day (expected HH:MM or HH:MM:SS)`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
}

function toTime(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string') {
    for (const layout of [timeLayouts.RFC3339Nano ?? '', timeLayouts.RFC3339 ?? '', '2006-01-02T15:04:05', '2006-01-02 15:04:05']) {
      try {
        return parseTime(layout, value);
      } catch {
        // next layout
      }
    }
    throw new FuncError(`cannot parse ${JSON.stringify(value)} as a timestamp`);
  }
  throw new FuncError(`cannot convert ${value === undefined || value === null ? '<nil>' : typeof value} to a timestamp`);
}

const layoutFields = Object.fromEntries(
  ['ANSIC', 'UnixDate', 'RubyDate', 'RFC822', 'RFC822Z', 'RFC850', 'RFC1123', 'RFC1123Z', 'RFC3339', 'RFC3339Nano', 'Kitchen', 'Stamp', 'StampMilli', 'StampMicro', 'StampNano'].map(
    (name) => [name, timeLayouts[name] ?? ''],
  ),
);

function wrapParse(body: () => Date): Date {
  try {
    return body();
  } catch (error) {
    throw new FuncError(error instanceof Error ? error.message : String(error));
  }
}

export const timeNamespace = new GoStruct('*funcs.TimeFuncs', layoutFields, {
  ZoneName: func([], () => 'UTC'),
  ZoneOffset: func([], () => 0n),
  Now: func([], () => new Date()),
  Parse: func(['string', 'any'], (layout, value) => wrapParse(() => parseTime(layout, toString(value)))),
  ParseLocal: func(['string', 'any'], (layout, value) => wrapParse(() => parseTime(layout, toString(value), process.env.TZ || undefined))),
  ParseInLocation: func(['string', 'string', 'any'], (layout, location, value) => wrapParse(() => parseTime(layout, toString(value), location))),
  Unix: func(['any'], unixTime),
  Nanosecond: unit(1n),
  Microsecond: unit(1_000n),
  Millisecond: unit(NS_PER_MS),
  Second: unit(1_000n * NS_PER_MS),
  Minute: unit(60_000n * NS_PER_MS),
  Hour: unit(3_600_000n * NS_PER_MS),
  ParseDuration: func(['any'], (value) => goParseDuration(toString(value))),
  Since: func(['time'], (time) => new GoDuration(BigInt(Date.now() - time.getTime()) * NS_PER_MS)),
  Until: func(['time'], (time) => new GoDuration(BigInt(time.getTime() - Date.now()) * NS_PER_MS)),
  InTimeRange: func(['any', 'string', 'string'], (value, start, end) => {
    const time = toTime(value);
    const seconds = time.getUTCHours() * 3600 + time.getUTCMinutes() * 60 + time.getUTCSeconds();
    return seconds >= timeOfDay(start) && seconds <= timeOfDay(end);
  }),
});

/** ParseDateTime: the forms gomplate tries, in its order; nil when none reads. */
function parseDateTime(text: string): Date | null {
  if (text === '') return null;
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value > 1e9 && value < 1e10) return new Date(value * 1000);
    if (value > 1e12 && value < 1e13) return new Date(value);
  }
  const now = /^now(?:([+-])(\d+)([smhdwMy]))?$/.exec(text);
  if (now) {
    const [, sign, amount, unitName] = now;
    if (!sign) return new Date();
    const ms = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, M: 30 * 86_400_000, y: 365 * 86_400_000 }[unitName ?? 's'] ?? 0;
    return new Date(Date.now() + (sign === '-' ? -1 : 1) * Number(amount) * ms);
  }
  const layouts = [
    timeLayouts.RFC3339Nano ?? '',
    timeLayouts.RFC3339 ?? '',
    '2006-01-02T15:04:05.999999999',
    '2006-01-02T15:04:05',
    '2006-01-02',
    '2006-01-02 15:04:05.999999999',
    '2006-01-02 15:04:05',
    '2006-01-02 15:04:05 MST',
  ];
  for (const layout of layouts) {
    try {
      return parseTime(layout, text);
    } catch {
      // next layout
    }
  }
  return null;
}

export const timeFunctions: Record<string, GoFunc> = {
  time: func([], () => timeNamespace),
  // No business hours are configured in Watchkeeper: gomplate answers nil then.
  in_business_hours: func(['string'], () => null),
  parseDateTime: func(['string'], parseDateTime),
};
