/**
 * Go's time.Time formatting and parsing by layout (src/time/format.go): the reference time
 * `Mon Jan 2 15:04:05 MST 2006` spelled in the layout says where each part goes.
 *
 * A JS Date is a time.Time in UTC (Go's Local is UTC on the servers canary-checker runs on); a
 * ZonedTime carries another zone's offset and abbreviation (dateInZone, time.ParseInLocation).
 */
export class ZonedTime extends Date {
  constructor(
    ms: number,
    readonly zone: string,
    readonly offsetSeconds: number,
    /** Nanoseconds within the millisecond, which a Date cannot hold. */
    readonly extraNanos = 0,
  ) {
    super(ms);
  }
}

export function zoneOf(time: Date): { name: string; offset: number } {
  return time instanceof ZonedTime ? { name: time.zone, offset: time.offsetSeconds } : { name: 'UTC', offset: 0 };
}

function nanosOf(time: Date): number {
  const ms = ((time.getTime() % 1000) + 1000) % 1000;
  return ms * 1_000_000 + (time instanceof ZonedTime ? time.extraNanos : 0);
}

/** The wall clock of the time in its zone, read through UTC getters. */
function wall(time: Date): Date {
  return new Date(time.getTime() + zoneOf(time).offset * 1000);
}

const longMonths = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const longDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export type Std =
  | 'LongMonth'
  | 'Month'
  | 'NumMonth'
  | 'ZeroMonth'
  | 'LongWeekDay'
  | 'WeekDay'
  | 'Day'
  | 'UnderDay'
  | 'ZeroDay'
  | 'UnderYearDay'
  | 'ZeroYearDay'
  | 'Hour'
  | 'Hour12'
  | 'ZeroHour12'
  | 'Minute'
  | 'ZeroMinute'
  | 'Second'
  | 'ZeroSecond'
  | 'LongYear'
  | 'Year'
  | 'PM'
  | 'pm'
  | 'TZ'
  | 'ISO8601TZ'
  | 'ISO8601SecondsTZ'
  | 'ISO8601ShortTZ'
  | 'ISO8601ColonTZ'
  | 'ISO8601ColonSecondsTZ'
  | 'NumTZ'
  | 'NumSecondsTz'
  | 'NumShortTZ'
  | 'NumColonTZ'
  | 'NumColonSecondsTZ'
  | 'Frac0'
  | 'Frac9';

export interface Chunk {
  prefix: string;
  std: Std | undefined;
  /** Digits of a fractional second, and its separator ('.' or ','). */
  digits: number;
  separator: string;
  suffix: string;
}

const startsWithLower = (text: string) => /^[a-z]/.test(text);
const isDigit = (text: string, at: number) => at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57;

const zoneLayouts: [string, Std][] = [
  ['-07:00:00', 'NumColonSecondsTZ'],
  ['-070000', 'NumSecondsTz'],
  ['-07:00', 'NumColonTZ'],
  ['-0700', 'NumTZ'],
  ['-07', 'NumShortTZ'],
  ['Z07:00:00', 'ISO8601ColonSecondsTZ'],
  ['Z070000', 'ISO8601SecondsTZ'],
  ['Z07:00', 'ISO8601ColonTZ'],
  ['Z0700', 'ISO8601TZ'],
  ['Z07', 'ISO8601ShortTZ'],
];

/** Go's nextStdChunk: the text before the first layout element, the element, and the rest. */
export function nextChunk(layout: string): Chunk {
  const found = (at: number, std: Std, length: number, digits = 0, separator = ''): Chunk => ({
    prefix: layout.slice(0, at),
    std,
    digits,
    separator,
    suffix: layout.slice(at + length),
  });
  for (let i = 0; i < layout.length; i++) {
    const rest = layout.slice(i);
    switch (layout[i]) {
      case 'J':
        if (rest.startsWith('January')) return found(i, 'LongMonth', 7);
        if (rest.startsWith('Jan') && !startsWithLower(rest.slice(3))) return found(i, 'Month', 3);
        break;
      case 'M':
        if (rest.startsWith('Monday')) return found(i, 'LongWeekDay', 6);
        if (rest.startsWith('Mon') && !startsWithLower(rest.slice(3))) return found(i, 'WeekDay', 3);
        if (rest.startsWith('MST')) return found(i, 'TZ', 3);
        break;
      case '0': {
        const second = layout[i + 1];
        if (second !== undefined && second >= '1' && second <= '6') {
          const std0x: Std[] = ['ZeroMonth', 'ZeroDay', 'ZeroHour12', 'ZeroMinute', 'ZeroSecond', 'Year'];
          return found(i, std0x[Number(second) - 1] ?? 'ZeroMonth', 2);
        }
        if (rest.startsWith('002')) return found(i, 'ZeroYearDay', 3);
        break;
      }
      case '1':
        if (layout[i + 1] === '5') return found(i, 'Hour', 2);
        return found(i, 'NumMonth', 1);
      case '2':
        if (rest.startsWith('2006')) return found(i, 'LongYear', 4);
        return found(i, 'Day', 1);
      case '_':
        if (layout[i + 1] === '2') {
          if (rest.startsWith('_2006')) return { prefix: layout.slice(0, i + 1), std: 'LongYear', digits: 0, separator: '', suffix: layout.slice(i + 5) };
          return found(i, 'UnderDay', 2);
        }
        if (rest.startsWith('__2')) return found(i, 'UnderYearDay', 3);
        break;
      case '3':
        return found(i, 'Hour12', 1);
      case '4':
        return found(i, 'Minute', 1);
      case '5':
        return found(i, 'Second', 1);
      case 'P':
        if (layout[i + 1] === 'M') return found(i, 'PM', 2);
        break;
      case 'p':
        if (layout[i + 1] === 'm') return found(i, 'pm', 2);
        break;
      case '-':
      case 'Z':
        for (const [text, std] of zoneLayouts) if (rest.startsWith(text)) return found(i, std, text.length);
        break;
      case '.':
      case ',': {
        const digit = layout[i + 1];
        if (digit === '0' || digit === '9') {
          let j = i + 1;
          while (j < layout.length && layout[j] === digit) j++;
          if (!isDigit(layout, j)) return found(i, digit === '0' ? 'Frac0' : 'Frac9', j - i, j - i - 1, layout[i] ?? '.');
        }
        break;
      }
    }
  }
  return { prefix: layout, std: undefined, digits: 0, separator: '', suffix: '' };
}

const pad = (value: number, width: number) => {
  const text = String(Math.abs(value)).padStart(width, '0');
  return value < 0 ? `-${text}` : text;
};

function yearDay(time: Date): number {
  const start = Date.UTC(time.getUTCFullYear(), 0, 1);
  return Math.floor((time.getTime() - start) / 86_400_000) + 1;
}

export function formatZone(std: Std, offset: number, name: string): string {
  if (std.startsWith('ISO8601') && offset === 0) return 'Z';
  if (std === 'TZ') {
    if (name !== '') return name;
  }
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hours = pad(Math.floor(abs / 3600), 2);
  const minutes = pad(Math.floor(abs / 60) % 60, 2);
  const seconds = pad(abs % 60, 2);
  switch (std) {
    case 'TZ':
      // No abbreviation: Go writes the offset as -0700 (and drops zero minutes as -07).
      return `${sign}${hours}${minutes === '00' ? '' : minutes}`;
    case 'ISO8601ShortTZ':
    case 'NumShortTZ':
      return `${sign}${hours}`;
    case 'ISO8601ColonTZ':
    case 'NumColonTZ':
      return `${sign}${hours}:${minutes}`;
    case 'ISO8601ColonSecondsTZ':
    case 'NumColonSecondsTZ':
      return `${sign}${hours}:${minutes}:${seconds}`;
    case 'ISO8601SecondsTZ':
    case 'NumSecondsTz':
      return `${sign}${hours}${minutes}${seconds}`;
    default:
      return `${sign}${hours}${minutes}`;
  }
}

/** time.Time.Format(layout). */
export function formatTime(time: Date, layout: string): string {
  const local = wall(time);
  const { name, offset } = zoneOf(time);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth();
  const day = local.getUTCDate();
  const hour = local.getUTCHours();
  let out = '';
  let rest = layout;
  while (rest !== '') {
    const chunk = nextChunk(rest);
    out += chunk.prefix;
    if (!chunk.std) break;
    rest = chunk.suffix;
    switch (chunk.std) {
      case 'Year':
        out += pad(((year % 100) + 100) % 100, 2);
        break;
      case 'LongYear':
        out += pad(year, 4);
        break;
      case 'Month':
        out += (longMonths[month] ?? '').slice(0, 3);
        break;
      case 'LongMonth':
        out += longMonths[month] ?? '';
        break;
      case 'NumMonth':
        out += String(month + 1);
        break;
      case 'ZeroMonth':
        out += pad(month + 1, 2);
        break;
      case 'WeekDay':
        out += (longDays[local.getUTCDay()] ?? '').slice(0, 3);
        break;
      case 'LongWeekDay':
        out += longDays[local.getUTCDay()] ?? '';
        break;
      case 'Day':
        out += String(day);
        break;
      case 'UnderDay':
        out += day < 10 ? ` ${day}` : String(day);
        break;
      case 'ZeroDay':
        out += pad(day, 2);
        break;
      case 'UnderYearDay':
        out += String(yearDay(local)).padStart(3, ' ');
        break;
      case 'ZeroYearDay':
        out += pad(yearDay(local), 3);
        break;
      case 'Hour':
        out += pad(hour, 2);
        break;
      case 'Hour12':
        out += String(hour % 12 === 0 ? 12 : hour % 12);
        break;
      case 'ZeroHour12':
        out += pad(hour % 12 === 0 ? 12 : hour % 12, 2);
        break;
      case 'Minute':
        out += String(local.getUTCMinutes());
        break;
      case 'ZeroMinute':
        out += pad(local.getUTCMinutes(), 2);
        break;
      case 'Second':
        out += String(local.getUTCSeconds());
        break;
      case 'ZeroSecond':
        out += pad(local.getUTCSeconds(), 2);
        break;
      case 'PM':
        out += hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += hour >= 12 ? 'pm' : 'am';
        break;
      case 'Frac0':
      case 'Frac9': {
        const nanos = String(nanosOf(time)).padStart(9, '0').slice(0, chunk.digits);
        if (chunk.std === 'Frac0') out += chunk.separator + nanos;
        else {
          const trimmed = nanos.replace(/0+$/, '');
          if (trimmed !== '') out += chunk.separator + trimmed;
        }
        break;
      }
      default:
        out += formatZone(chunk.std, offset, name);
    }
  }
  return out;
}

/** time.Time.String(): 2006-01-02 15:04:05.999999999 -0700 MST. */
export function timeString(time: Date): string {
  if (Number.isNaN(time.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  return formatTime(time, '2006-01-02 15:04:05.999999999 -0700 MST');
}

export const timeLayouts: Record<string, string> = {
  Layout: '01/02 03:04:05PM \'06 -0700',
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RubyDate: 'Mon Jan 02 15:04:05 -0700 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
  Kitchen: '3:04PM',
  Stamp: 'Jan _2 15:04:05',
  StampMilli: 'Jan _2 15:04:05.000',
  StampMicro: 'Jan _2 15:04:05.000000',
  StampNano: 'Jan _2 15:04:05.000000000',
  DateTime: '2006-01-02 15:04:05',
  DateOnly: '2006-01-02',
  TimeOnly: '15:04:05',
};

/** The offset (seconds east of UTC) and abbreviation of an IANA zone at an instant, through Intl. */
export function zoneAt(zone: string, ms: number): { name: string; offset: number } | undefined {
  if (zone === 'UTC' || zone === '' || zone === 'Local') return { name: 'UTC', offset: 0 };
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      timeZoneName: 'short',
    }).formatToParts(new Date(ms));
    const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    const offset = Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 1000);
    const short = parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
    // Go prints the zone database's abbreviation (+04, CET); Intl says GMT+4 where it knows none.
    if (!/^GMT([+-]|$)/.test(short)) return { name: short, offset };
    if (offset === 0) return { name: 'GMT', offset };
    return { name: formatZone(offset % 3600 === 0 ? 'NumShortTZ' : 'NumTZ', offset, ''), offset };
  } catch {
    return undefined;
  }
}

/** The time in an IANA zone (time.Time.In). */
export function inZone(time: Date, zone: string): ZonedTime | undefined {
  const found = zoneAt(zone, time.getTime());
  if (!found) return undefined;
  return new ZonedTime(time.getTime(), found.name, found.offset, time instanceof ZonedTime ? time.extraNanos : 0);
}
