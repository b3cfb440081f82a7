import { absoluteRange } from './absolute';
import { futureRange, INDEFINITELY, INDEFINITELY_PARAM } from './future';
import { findQuickRange, evaluateExpression } from './mapped';
import { parseRelativeRange, relativeRange } from './relative';
import type { AbsoluteTimeRange, FutureTimeRangeValue, TimeRangeValue } from './types';

/** Query parameter names; a page with two ranges passes its own. */
export interface TimeRangeKeys {
  range: string;
  from: string;
  to: string;
}
export const DEFAULT_TIME_RANGE_KEYS: TimeRangeKeys = { range: 'range', from: 'from', to: 'to' };

/**
 * The URL form of a range: relative as `range=2d`, mapped as `from=now-1d/d&to=now-1d/d`, absolute as
 * ISO `from` and `to`. The type is implied by which parameters are set, so URLs stay short and readable.
 */
export function timeRangeToParams(value: TimeRangeValue, keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS): Record<string, string> {
  if (value.type === 'relative') return { [keys.range]: value.range };
  return { [keys.from]: value.from, [keys.to]: value.to };
}

/**
 * The URL form of a future range: `range=1h` (the next hour), `range=indefinitely` (no end), or ISO
 * `from` and `to`. The page decides which direction it reads, so `range=1h` is never ambiguous.
 */
export function futureTimeRangeToParams(value: FutureTimeRangeValue, keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS): Record<string, string> {
  if (value.type === 'absolute') return { [keys.from]: value.from, [keys.to]: value.to };
  return { [keys.range]: value.range ?? INDEFINITELY_PARAM };
}

function replaceParams(params: URLSearchParams, entries: Record<string, string>, keys: TimeRangeKeys): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [keys.range, keys.from, keys.to]) next.delete(key);
  for (const [key, text] of Object.entries(entries)) next.set(key, text);
  return next;
}

/** Writes a range into search parameters, removing the keys the other kinds use. */
export function writeTimeRangeParams(params: URLSearchParams, value: TimeRangeValue, keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS): URLSearchParams {
  return replaceParams(params, timeRangeToParams(value, keys), keys);
}

export function writeFutureTimeRangeParams(params: URLSearchParams, value: FutureTimeRangeValue, keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS): URLSearchParams {
  return replaceParams(params, futureTimeRangeToParams(value, keys), keys);
}

function mappedFromParams(from: string, to: string): TimeRangeValue | null {
  const known = findQuickRange(from, to);
  if (known) return known;
  try {
    // Validate both bounds now rather than letting a hand-edited URL throw while the page renders.
    const now = new Date();
    evaluateExpression(from, now, 'from');
    evaluateExpression(to, now, 'to');
    return { type: 'mapped', display: `${from} to ${to}`, from, to };
  } catch {
    return null;
  }
}

function absoluteFromParams(from: string, to: string): AbsoluteTimeRange | null {
  const start = new Date(from);
  const end = new Date(to);
  return Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start > end ? null : absoluteRange(start, end);
}

/** Reads a range from search parameters; anything unusable is logged and the fallback returned. */
export function timeRangeFromParams(params: URLSearchParams, fallback: TimeRangeValue, keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS): TimeRangeValue {
  const range = params.get(keys.range);
  const from = params.get(keys.from);
  const to = params.get(keys.to);
  let value: TimeRangeValue | null = null;
  if (range) value = parseRelativeRange(range) ? relativeRange(range) : null;
  else if (from && to && from.startsWith('now') && to.startsWith('now')) value = mappedFromParams(from, to);
  else if (from && to) value = absoluteFromParams(from, to);
  else if (!from && !to) return fallback;
  if (!value) {
    console.warn('Invalid time range', { range, from, to });
    return fallback;
  }
  return value;
}

/**
 * Reads a future range from search parameters. There are no future quick ranges, so `now…`
 * expressions are not accepted; anything unusable is logged and the fallback returned.
 */
export function futureTimeRangeFromParams(
  params: URLSearchParams,
  fallback: FutureTimeRangeValue,
  keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS,
): FutureTimeRangeValue {
  const range = params.get(keys.range);
  const from = params.get(keys.from);
  const to = params.get(keys.to);
  let value: FutureTimeRangeValue | null = null;
  if (range === INDEFINITELY_PARAM) value = INDEFINITELY;
  else if (range) value = parseRelativeRange(range) ? futureRange(range) : null;
  else if (from && to) value = absoluteFromParams(from, to);
  else if (!from && !to) return fallback;
  if (!value) {
    console.warn('Invalid time range', { range, from, to });
    return fallback;
  }
  return value;
}
