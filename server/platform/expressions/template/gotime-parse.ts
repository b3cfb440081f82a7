import { nextChunk, type Std, zoneAt, ZonedTime } from './gotime';

const longMonths = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const longDays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const daysIn = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

class ParseTimeError extends Error {}

/** A name from the list at the start of `value`, compared without case as Go's lookup does. */
function lookup(names: string[], value: string, short: boolean): [number, string] {
  const lower = value.toLowerCase();
  for (const [index, name] of names.entries()) {
    const candidate = short ? name.slice(0, 3) : name;
    if (lower.startsWith(candidate)) return [index, value.slice(candidate.length)];
  }
  throw new ParseTimeError('bad value for field');
}

/** One or two digits (exactly two when `fixed`). */
function getnum(value: string, fixed: boolean): [number, string] {
  const digit = (at: number) => at < value.length && value.charCodeAt(at) >= 48 && value.charCodeAt(at) <= 57;
  if (!digit(0)) throw new ParseTimeError('bad value for field');
  if (!digit(1)) {
    if (fixed) throw new ParseTimeError('bad value for field');
    return [Number(value[0]), value.slice(1)];
  }
  return [Number(value.slice(0, 2)), value.slice(2)];
}

function getnum3(value: string, fixed: boolean): [number, string] {
  let count = 0;
  while (count < 3 && count < value.length && /[0-9]/.test(value.charAt(count))) count++;
  if (count === 0 || (fixed && count !== 3)) throw new ParseTimeError('bad value for field');
  return [Number(value.slice(0, count)), value.slice(count)];
}

/** Go's skip: the literal text of the layout, where runs of spaces match runs of spaces. */
function skip(value: string, prefix: string): string {
  let rest = value;
  let pattern = prefix;
  while (pattern.length > 0) {
    if (pattern[0] === ' ') {
      if (rest.length > 0 && rest[0] !== ' ') throw new ParseTimeError('bad value for field');
      pattern = pattern.replace(/^ +/, '');
      rest = rest.replace(/^ +/, '');
      continue;
    }
    if (rest.length === 0 || rest[0] !== pattern[0]) throw new ParseTimeError('bad value for field');
    rest = rest.slice(1);
    pattern = pattern.slice(1);
  }
  return rest;
}

interface Fields {
  year: number;
  month: number;
  day: number;
  yday: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  pm?: boolean;
  offset?: number;
  zoneName?: string;
}

function parseOffset(std: Std, value: string): [number, string] {
  if (std.startsWith('ISO8601') && value.startsWith('Z')) return [0, value.slice(1)];
  const colon = std.includes('Colon');
  const seconds = std.includes('Seconds');
  const short = std.includes('Short');
  const pattern = short ? /^([+-])(\d\d)/ : colon ? (seconds ? /^([+-])(\d\d):(\d\d):(\d\d)/ : /^([+-])(\d\d):(\d\d)/) : seconds ? /^([+-])(\d\d)(\d\d)(\d\d)/ : /^([+-])(\d\d)(\d\d)/;
  const match = pattern.exec(value);
  if (!match) throw new ParseTimeError('bad value for field');
  const [text, sign, hh = '0', mm = '0', ss = '0'] = match;
  const total = Number(hh) * 3600 + Number(mm) * 60 + Number(ss);
  return [sign === '-' ? -total : total, value.slice(text.length)];
}

function parseStd(std: Std, value: string, fields: Fields): string {
  switch (std) {
    case 'Year': {
      const [year, rest] = getnum(value, true);
      fields.year = year >= 69 ? 1900 + year : 2000 + year;
      return rest;
    }
    case 'LongYear': {
      if (!/^\d{4}/.test(value)) throw new ParseTimeError('bad value for field');
      fields.year = Number(value.slice(0, 4));
      return value.slice(4);
    }
    case 'Month':
    case 'LongMonth': {
      const [month, rest] = lookup(longMonths, value, std === 'Month');
      fields.month = month + 1;
      return rest;
    }
    case 'NumMonth':
    case 'ZeroMonth': {
      const [month, rest] = getnum(value, std === 'ZeroMonth');
      if (month <= 0 || month > 12) throw new ParseTimeError('month out of range');
      fields.month = month;
      return rest;
    }
    case 'WeekDay':
    case 'LongWeekDay':
      return lookup(longDays, value, std === 'WeekDay')[1];
    case 'Day':
    case 'UnderDay':
    case 'ZeroDay': {
      const text = std === 'UnderDay' && value.startsWith(' ') ? value.slice(1) : value;
      const [day, rest] = getnum(text, std === 'ZeroDay');
      fields.day = day;
      return rest;
    }
    case 'UnderYearDay':
    case 'ZeroYearDay': {
      const [yday, rest] = getnum3(std === 'UnderYearDay' ? value.replace(/^ {1,2}/, '') : value, std === 'ZeroYearDay');
      fields.yday = yday;
      return rest;
    }
    case 'Hour': {
      const [hour, rest] = getnum(value, false);
      if (hour < 0 || hour >= 24) throw new ParseTimeError('hour out of range');
      fields.hour = hour;
      return rest;
    }
    case 'Hour12':
    case 'ZeroHour12': {
      const [hour, rest] = getnum(value, std === 'ZeroHour12');
      if (hour < 0 || hour > 12) throw new ParseTimeError('hour out of range');
      fields.hour = hour;
      return rest;
    }
    case 'Minute':
    case 'ZeroMinute': {
      const [minute, rest] = getnum(value, std === 'ZeroMinute');
      if (minute >= 60) throw new ParseTimeError('minute out of range');
      fields.minute = minute;
      return rest;
    }
    case 'Second':
    case 'ZeroSecond': {
      const [second, rest] = getnum(value, std === 'ZeroSecond');
      if (second >= 60) throw new ParseTimeError('second out of range');
      fields.second = second;
      // Go reads a fraction after the seconds even when the layout has none.
      const fraction = /^[.,](\d+)/.exec(rest);
      if (fraction) {
        fields.nanos = Number((fraction[1] ?? '').slice(0, 9).padEnd(9, '0'));
        return rest.slice(fraction[0].length);
      }
      return rest;
    }
    case 'PM':
    case 'pm': {
      const marker = value.slice(0, 2).toUpperCase();
      if (marker !== 'AM' && marker !== 'PM') throw new ParseTimeError('bad value for field');
      fields.pm = marker === 'PM';
      return value.slice(2);
    }
    case 'TZ': {
      if (value.startsWith('UTC')) {
        fields.zoneName = 'UTC';
        return value.slice(3);
      }
      const match = /^[A-Z]{3,5}|^[+-]\d\d(\d\d)?/.exec(value);
      if (!match) throw new ParseTimeError('bad value for field');
      fields.zoneName = match[0];
      return value.slice(match[0].length);
    }
    case 'Frac0':
    case 'Frac9': {
      const match = std === 'Frac0' ? /^[.,](\d+)/.exec(value) : /^(?:[.,](\d+))?/.exec(value);
      if (!match) throw new ParseTimeError('bad value for field');
      if (match[1]) fields.nanos = Number(match[1].slice(0, 9).padEnd(9, '0'));
      return value.slice(match[0].length);
    }
    default: {
      const [offset, rest] = parseOffset(std, value);
      fields.offset = offset;
      return rest;
    }
  }
}

/**
 * time.Parse(layout, value), and ParseInLocation when `zone` is given (an IANA name). Throws an Error
 * worded as Go's: parsing time "…" as "…": cannot parse "…" as "…".
 */
export function parseTime(layout: string, value: string, zone?: string): Date {
  const fields: Fields = { year: 0, month: 1, day: 1, yday: -1, hour: 0, minute: 0, second: 0, nanos: 0 };
  let rest = value;
  let remaining = layout;
  for (;;) {
    const chunk = nextChunk(remaining);
    const element = remaining.slice(chunk.prefix.length, remaining.length - chunk.suffix.length);
    try {
      rest = skip(rest, chunk.prefix);
    } catch {
      throw new Error(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(chunk.prefix)}`);
    }
    if (!chunk.std) {
      if (rest.length > 0) throw new Error(`parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(rest)}`);
      break;
    }
    remaining = chunk.suffix;
    try {
      rest = parseStd(chunk.std, rest, fields);
    } catch (error) {
      const reason = error instanceof ParseTimeError && error.message !== 'bad value for field' ? `: ${error.message}` : '';
      if (reason) throw new Error(`parsing time ${JSON.stringify(value)}${reason}`);
      throw new Error(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element)}`);
    }
  }
  if (fields.pm === true && fields.hour < 12) fields.hour += 12;
  if (fields.pm === false && fields.hour === 12) fields.hour = 0;
  if (fields.yday >= 0) {
    const date = new Date(Date.UTC(fields.year, 0, fields.yday));
    fields.month = date.getUTCMonth() + 1;
    fields.day = date.getUTCDate();
  }
  const leap = fields.year % 4 === 0 && (fields.year % 100 !== 0 || fields.year % 400 === 0);
  const maxDay = fields.month === 2 && leap ? 29 : (daysIn[fields.month - 1] ?? 31);
  if (fields.day < 1 || fields.day > maxDay) throw new Error(`parsing time ${JSON.stringify(value)}: day out of range`);
  const utc = new Date(0);
  utc.setUTCFullYear(fields.year, fields.month - 1, fields.day);
  utc.setUTCHours(fields.hour, fields.minute, fields.second, Math.floor(fields.nanos / 1_000_000));
  const wallMs = utc.getTime();
  const extra = fields.nanos % 1_000_000;
  if (fields.offset !== undefined) {
    return new ZonedTime(wallMs - fields.offset * 1000, fields.zoneName ?? '', fields.offset, extra);
  }
  if (fields.zoneName !== undefined && fields.zoneName !== 'UTC') {
    // An abbreviation Go cannot place: it keeps the name with a zero offset.
    return new ZonedTime(wallMs, fields.zoneName, 0, extra);
  }
  if (zone !== undefined && zone !== 'UTC' && fields.zoneName === undefined) {
    const first = zoneAt(zone, wallMs);
    if (!first) throw new Error(`unknown time zone ${zone}`);
    const guess = zoneAt(zone, wallMs - first.offset * 1000) ?? first;
    return new ZonedTime(wallMs - guess.offset * 1000, guess.name, guess.offset, extra);
  }
  return extra === 0 ? new Date(wallMs) : new ZonedTime(wallMs, 'UTC', 0, extra);
}
