import { absoluteRange } from './absolute';
import { findQuickRange, evaluateExpression } from './mapped';
import { parseRelativeRange, relativeRange } from './relative';
import type { TimeRangeValue } from './types';

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

/** Writes a range into search parameters, removing the keys the other kinds use. */
export function writeTimeRangeParams(params: URLSearchParams, value: TimeRangeValue, keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [keys.range, keys.from, keys.to]) next.delete(key);
  for (const [key, text] of Object.entries(timeRangeToParams(value, keys))) next.set(key, text);
  return next;
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

/** Reads a range from search parameters; anything unusable is logged and the fallback returned. */
export function timeRangeFromParams(params: URLSearchParams, fallback: TimeRangeValue, keys: TimeRangeKeys = DEFAULT_TIME_RANGE_KEYS): TimeRangeValue {
  const range = params.get(keys.range);
  const from = params.get(keys.from);
  const to = params.get(keys.to);
  let value: TimeRangeValue | null = null;
  if (range) value = parseRelativeRange(range) ? relativeRange(range) : null;
  else if (from && to && from.startsWith('now') && to.startsWith('now')) value = mappedFromParams(from, to);
  else if (from && to) {
    const start = new Date(from);
    const end = new Date(to);
    value = Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start > end ? null : absoluteRange(start, end);
  } else if (!from && !to) return fallback;
  if (!value) {
    console.warn('Invalid time range', { range, from, to });
    return fallback;
  }
  return value;
}
