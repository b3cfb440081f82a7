import { evaluateExpression } from './mapped';
import { addRange, subtractRange } from './relative';
import type { FutureTimeRangeValue, ResolvedFutureTimeRange, ResolvedTimeRange, TimeRangeValue } from './types';

/** Spec §8: an invalid time range is logged (and ignored by the caller). */
function invalid(value: TimeRangeValue | FutureTimeRangeValue): null {
  console.warn('Invalid time range', value);
  return null;
}

/**
 * Concrete from/to of a range at `now`. Relative and absolute ranges that do not make sense are logged
 * and give null; a mapped range that does not evaluate throws 'Invalid mapped time range' (spec §8).
 */
export function resolveTimeRange(value: TimeRangeValue, now: Date = new Date()): ResolvedTimeRange | null {
  switch (value.type) {
    case 'relative': {
      const from = subtractRange(value.range, now);
      return from ? { from, to: now } : invalid(value);
    }
    case 'absolute': {
      const from = new Date(value.from);
      const to = new Date(value.to);
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from > to) return invalid(value);
      return { from, to };
    }
    case 'mapped':
      return { from: evaluateExpression(value.from, now, 'from'), to: evaluateExpression(value.to, now, 'to') };
  }
}

/**
 * Concrete bounds of a future range at `now`: now .. now + range, or now .. null for 'Indefinitely'
 * (no end). Absolute ranges resolve as in the past picker; nonsense is logged and gives null.
 */
export function resolveFutureTimeRange(value: FutureTimeRangeValue, now: Date = new Date()): ResolvedFutureTimeRange | null {
  if (value.type === 'absolute') return resolveTimeRange(value, now);
  if (value.range === null) return { from: now, to: null };
  const to = addRange(value.range, now);
  return to ? { from: now, to } : invalid(value);
}
