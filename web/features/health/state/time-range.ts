import { DEFAULT_TIME_RANGE, TIME_RANGE_MINUTES, TIME_RANGE_OPTIONS, type TimeRangeOption } from '@common/constants';
import { relativeRange, resolveTimeRange, timeRangeFromParams, type TimeRangeValue } from '@web/ui/time-range';

/** Spec §9: the Health page and the check detail look at the last hour unless told otherwise. */
export const DEFAULT_HEALTH_RANGE: TimeRangeValue = relativeRange(DEFAULT_TIME_RANGE);

/**
 * The one `timeRange` parameter of spec §2 holds any range the shared picker yields: a relative range as
 * itself ('1h', '2w', '1mo'), a quick range as its two expressions ('now-1d/d,now-1d/d'), an absolute range
 * as two ISO instants ('2024-05-01T00:00:00.000Z,2024-05-02T00:00:00.000Z'). Neither form has a comma
 * of its own, so the comma separates the bounds.
 */
export function timeRangeToParam(value: TimeRangeValue): string {
  return value.type === 'relative' ? value.range : `${value.from},${value.to}`;
}

/** Reads the parameter; anything unusable is logged (spec §8) and gives the fallback. */
export function timeRangeFromParam(text: string | undefined, fallback: TimeRangeValue = DEFAULT_HEALTH_RANGE): TimeRangeValue {
  if (!text) return fallback;
  const comma = text.indexOf(',');
  const params = comma < 0 ? new URLSearchParams({ range: text }) : new URLSearchParams({ from: text.slice(0, comma), to: text.slice(comma + 1) });
  return timeRangeFromParams(params, fallback);
}

/**
 * The summary and graph endpoints take `start` and `end`: a relative range goes as is (the server counts
 * it back from its own clock), the others as the instants they resolve to now. Null when the range does
 * not resolve (logged by the resolver).
 */
export function timeRangeToApi(value: TimeRangeValue, now: Date = new Date()): { start: string; end?: string } | null {
  if (value.type === 'relative') return { start: value.range };
  try {
    const resolved = resolveTimeRange(value, now);
    return resolved ? { start: resolved.from.toISOString(), end: resolved.to.toISOString() } : null;
  } catch (error) {
    console.warn(error);
    return null;
  }
}

/**
 * Spec §9: a check opened without a chosen range looks back far enough to include its last run: the
 * smallest of the time range options (1h up to 5y) longer than the time since that run.
 */
export function defaultCheckRange(lastRuntime: string | null | undefined, now: Date = new Date()): TimeRangeOption {
  const last = lastRuntime ? new Date(lastRuntime).getTime() : Number.NaN;
  if (Number.isNaN(last)) return DEFAULT_TIME_RANGE;
  const ageMinutes = (now.getTime() - last) / 60_000;
  const start = TIME_RANGE_OPTIONS.indexOf(DEFAULT_TIME_RANGE);
  for (const option of TIME_RANGE_OPTIONS.slice(start)) {
    if (ageMinutes < TIME_RANGE_MINUTES[option]) return option;
  }
  return TIME_RANGE_OPTIONS[TIME_RANGE_OPTIONS.length - 1] ?? DEFAULT_TIME_RANGE;
}
