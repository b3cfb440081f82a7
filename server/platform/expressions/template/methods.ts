import { GoDuration } from '../values';
import { func } from './define';
import { formatTime, timeString, ZonedTime, zoneOf } from './gotime';
import { asDuration, type GoFunc, GoStruct, int64 } from './kinds';

/**
 * Methods templates can call on values, as Go finds them with MethodByName: `{{ .sslAge.Hours }}`,
 * `{{ .time.Format "2006-01-02" }}`, and those of gomplate's namespaces (`strings.ToUpper`).
 */
const NS_PER_SECOND = 1_000_000_000n;

function durationMethods(duration: GoDuration): Record<string, GoFunc> {
  const ns = duration.nanoseconds;
  const split = (unit: bigint) => Number(ns / unit) + Number(ns % unit) / Number(unit);
  return {
    Hours: func([], () => split(3600n * NS_PER_SECOND)),
    Minutes: func([], () => split(60n * NS_PER_SECOND)),
    Seconds: func([], () => split(NS_PER_SECOND)),
    Milliseconds: func([], () => ns / 1_000_000n),
    Microseconds: func([], () => ns / 1_000n),
    Nanoseconds: func([], () => ns),
    String: func([], () => duration.toString()),
    Abs: func([], () => new GoDuration(ns < 0n ? -ns : ns)),
    Truncate: func(['duration'], (m) => (m.nanoseconds <= 0n ? duration : new GoDuration(ns - (ns % m.nanoseconds)))),
    Round: func(['duration'], (m) => {
      const unit = m.nanoseconds;
      if (unit <= 0n) return duration;
      let rest = ns % unit;
      if (ns < 0n) {
        rest = -rest;
        return new GoDuration(rest + rest < unit ? ns + rest : ns + rest - unit);
      }
      return new GoDuration(rest + rest < unit ? ns - rest : ns + unit - rest);
    }),
  };
}

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function sameZone(time: Date, ms: number): Date {
  if (time instanceof ZonedTime) return new ZonedTime(ms, time.zone, time.offsetSeconds, time.extraNanos);
  return new Date(ms);
}

function timeMethods(time: Date): Record<string, GoFunc> {
  const ms = time.getTime();
  const wall = new Date(ms + zoneOf(time).offset * 1000);
  return {
    Format: func(['string'], (layout) => formatTime(time, layout)),
    String: func([], () => timeString(time)),
    UTC: func([], () => new Date(ms)),
    Local: func([], () => new Date(ms)),
    Unix: func([], () => BigInt(Math.floor(ms / 1000))),
    UnixMilli: func([], () => BigInt(ms)),
    UnixNano: func([], () => int64(BigInt(ms) * 1_000_000n)),
    Year: func([], () => BigInt(wall.getUTCFullYear())),
    Month: func([], () => monthNames[wall.getUTCMonth()] ?? ''),
    Day: func([], () => BigInt(wall.getUTCDate())),
    Weekday: func([], () => dayNames[wall.getUTCDay()] ?? ''),
    YearDay: func([], () => BigInt(Math.floor((wall.getTime() - Date.UTC(wall.getUTCFullYear(), 0, 1)) / 86_400_000) + 1)),
    Hour: func([], () => BigInt(wall.getUTCHours())),
    Minute: func([], () => BigInt(wall.getUTCMinutes())),
    Second: func([], () => BigInt(wall.getUTCSeconds())),
    Nanosecond: func([], () => BigInt((((ms % 1000) + 1000) % 1000) * 1_000_000)),
    IsZero: func([], () => ms === Date.UTC(1, 0, 1) || Number.isNaN(ms)),
    Add: func(['duration'], (d) => sameZone(time, ms + Number(d.nanoseconds / 1_000_000n))),
    Sub: func(['time'], (other) => new GoDuration(BigInt(ms - other.getTime()) * 1_000_000n)),
    AddDate: func(['int', 'int', 'int'], (years, months, days) => {
      const next = new Date(wall.getTime());
      next.setUTCFullYear(next.getUTCFullYear() + Number(years), next.getUTCMonth() + Number(months), next.getUTCDate() + Number(days));
      return sameZone(time, next.getTime() - zoneOf(time).offset * 1000);
    }),
    Before: func(['time'], (other) => ms < other.getTime()),
    After: func(['time'], (other) => ms > other.getTime()),
    Equal: func(['time'], (other) => ms === other.getTime()),
    Truncate: func(['duration'], (d) => {
      const unit = Number(d.nanoseconds / 1_000_000n);
      return unit <= 0 ? time : sameZone(time, ms - (((ms % unit) + unit) % unit));
    }),
    Round: func(['duration'], (d) => {
      const unit = Number(d.nanoseconds / 1_000_000n);
      return unit <= 0 ? time : sameZone(time, Math.round(ms / unit) * unit);
    }),
  };
}

export function methodOf(receiver: unknown, name: string): GoFunc | undefined {
  if (typeof receiver !== 'object' || receiver === null) return undefined;
  if (receiver instanceof GoStruct) return Object.hasOwn(receiver.methods, name) ? receiver.methods[name] : undefined;
  if (receiver instanceof Date) {
    const methods = timeMethods(receiver);
    return Object.hasOwn(methods, name) ? methods[name] : undefined;
  }
  const duration = asDuration(receiver);
  if (duration) {
    const methods = durationMethods(duration);
    return Object.hasOwn(methods, name) ? methods[name] : undefined;
  }
  return undefined;
}

