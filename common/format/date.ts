import type { DateFormat } from '../constants';
import { formatRelative } from './relative';

/** The preference value meaning "the browser's own time zone" (spec §9 default). */
export const BROWSER_TIME_ZONE = 'Browser';

export type DateInput = Date | string | number | null | undefined;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/**
 * A date, or null when the value is empty: missing, unparseable, or the zero date 0001-01-01 that Go
 * backends send for "never" (spec §9).
 */
export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  if (date.getUTCFullYear() <= 1) return null;
  return date;
}

export function isEmptyDate(value: DateInput): boolean {
  return toDate(value) === null;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

function resolveZone(timeZone: string | undefined): string | undefined {
  if (!timeZone || timeZone === BROWSER_TIME_ZONE) return undefined;
  try {
    formatterFor(timeZone);
    return timeZone;
  } catch {
    // An unknown zone (a stale preference) falls back to the browser's rather than breaking every date.
    return undefined;
  }
}

/** The wall-clock reading of a moment in a time zone. */
export function wallClock(date: Date, timeZone?: string): WallClock {
  const parts = formatterFor(resolveZone(timeZone)).formatToParts(date);
  const read = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: read('year'), month: read('month'), day: read('day'), hour: read('hour'), minute: read('minute'), second: read('second') };
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * A date in one of the four display formats of spec §9, in an IANA time zone or the browser's
 * ('Browser'): short '1h' (age), medium 'Mon 10:30:45', full 'Jan 1 10:30:01.999', timestamp
 * '2024-01-01 10:30:01.999'. Empty dates give ''.
 */
export function formatDate(value: DateInput, format: DateFormat, timeZone: string = BROWSER_TIME_ZONE, now?: Date): string {
  const date = toDate(value);
  if (!date) return '';
  if (format === 'short') return formatRelative(date, now);
  const c = wallClock(date, timeZone);
  const time = `${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
  const millis = pad(date.getUTCMilliseconds(), 3);
  switch (format) {
    case 'medium':
      return `${WEEKDAYS[new Date(Date.UTC(c.year, c.month - 1, c.day)).getUTCDay()]} ${time}`;
    case 'full':
      return `${MONTHS[c.month - 1]} ${c.day} ${time}.${millis}`;
    case 'timestamp':
      return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)} ${time}.${millis}`;
  }
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/**
 * A chart's time tick in the person's format, to the precision of the ticks' step (`stepMs`, the distance
 * between ticks): milliseconds only under a second, seconds only under a minute, the time of day only under
 * a day. short reads as the age, as everywhere ('5m', '2h'); medium 'Mon 10:30' ('Mon Jan 1' for days); full
 * 'Jan 1 10:30' ('Jan 1'); timestamp '2024-01-01 10:30' ('2024-01-01').
 */
export function formatAxisDate(value: DateInput, format: DateFormat, stepMs: number, timeZone: string = BROWSER_TIME_ZONE, now?: Date): string {
  const date = toDate(value);
  if (!date) return '';
  if (format === 'short') return formatRelative(date, now);
  const c = wallClock(date, timeZone);
  const minutes = `${pad(c.hour)}:${pad(c.minute)}`;
  const seconds = `${minutes}:${pad(c.second)}`;
  const clock = stepMs < SECOND ? `${seconds}.${pad(date.getUTCMilliseconds(), 3)}` : stepMs < MINUTE ? seconds : minutes;
  const days = stepMs >= DAY;
  const month = MONTHS[c.month - 1];
  switch (format) {
    case 'medium': {
      const weekday = WEEKDAYS[new Date(Date.UTC(c.year, c.month - 1, c.day)).getUTCDay()];
      return days ? `${weekday} ${month} ${c.day}` : `${weekday} ${clock}`;
    }
    case 'full':
      return days ? `${month} ${c.day}` : `${month} ${c.day} ${clock}`;
    case 'timestamp': {
      const day = `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`;
      return days ? day : `${day} ${clock}`;
    }
  }
}

/** Minutes east of UTC of a time zone at a moment (e.g. 330 for Asia/Kolkata). */
export function zoneOffsetMinutes(timeZone: string | undefined, at: Date = new Date()): number {
  const c = wallClock(at, timeZone);
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

function offsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export interface TimeZoneOption {
  /** 'Browser' or an IANA name; the value stored in the preference. */
  value: string;
  /** '(UTC+05:30) Asia/Kolkata', or 'Browser' for the browser's own zone. */
  label: string;
  offsetMinutes: number;
}

/** 'Browser' first, then every zone the browser knows, sorted by current UTC offset, then name (spec §9). */
export function listTimeZones(at: Date = new Date()): TimeZoneOption[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  const options = zones.map((zone) => {
    const offsetMinutes = zoneOffsetMinutes(zone, at);
    return { value: zone, label: `(${offsetLabel(offsetMinutes)}) ${zone}`, offsetMinutes };
  });
  options.sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.value.localeCompare(b.value));
  return [{ value: BROWSER_TIME_ZONE, label: BROWSER_TIME_ZONE, offsetMinutes: zoneOffsetMinutes(undefined, at) }, ...options];
}
