import { PAST_RELATIVE_RANGES } from '@common/constants';
import { add, sub, type Duration } from 'date-fns';
import type { RelativeTimeRange } from './types';

/** 'm' is minutes and 'M' (or 'mo') months, as in the spec's lists ('30m', '6M', '1mo'). */
const UNITS = {
  s: ['seconds', 'second'],
  m: ['minutes', 'minute'],
  h: ['hours', 'hour'],
  d: ['days', 'day'],
  w: ['weeks', 'week'],
  M: ['months', 'month'],
  mo: ['months', 'month'],
  y: ['years', 'year'],
} as const satisfies Record<string, readonly [keyof Duration, string]>;
type Unit = keyof typeof UNITS;

const RELATIVE = /^(\d{1,4})(mo|[smhdwMy])$/;

function isUnit(value: string): value is Unit {
  return Object.hasOwn(UNITS, value);
}

export interface ParsedRange {
  amount: number;
  unit: Unit;
}

/** '15m' → { amount: 15, unit: 'm' }; null for anything else (including a zero length). */
export function parseRelativeRange(range: string): ParsedRange | null {
  const match = RELATIVE.exec(range.trim());
  const unit = match?.[2];
  if (!match || !unit || !isUnit(unit)) return null;
  const amount = Number(match[1]);
  return amount > 0 ? { amount, unit } : null;
}

/** The moment `range` before `now`, or null when the range does not parse. */
export function subtractRange(range: string, now: Date): Date | null {
  const parsed = parseRelativeRange(range);
  if (!parsed) return null;
  return sub(now, { [UNITS[parsed.unit][0]]: parsed.amount });
}

/** The moment `range` after `now` (the future picker's end), or null when the range does not parse. */
export function addRange(range: string, now: Date): Date | null {
  const parsed = parseRelativeRange(range);
  if (!parsed) return null;
  return add(now, { [UNITS[parsed.unit][0]]: parsed.amount });
}

/** '5 minutes', '1 hour'; null when the range does not parse. */
function lengthWords(range: string): string | null {
  const parsed = parseRelativeRange(range);
  if (!parsed) return null;
  const [plural, singular] = UNITS[parsed.unit];
  return `${parsed.amount} ${parsed.amount === 1 ? singular : plural}`;
}

/** 'Last 5 minutes', 'Last 1 hour', 'Last 6 months'. */
export function relativeDisplay(range: string): string {
  const words = lengthWords(range);
  return words ? `Last ${words}` : range;
}

/** A past range as words mid-sentence: 'the last hour' (not 'last 1 hour'), 'the last 15 minutes'; an unreadable range as it is. */
export function relativeSpanWords(range: string): string {
  const parsed = parseRelativeRange(range);
  if (!parsed) return range;
  const [plural, singular] = UNITS[parsed.unit];
  return parsed.amount === 1 ? `the last ${singular}` : `the last ${parsed.amount} ${plural}`;
}

/** 'Next 5 minutes', 'Next 1 hour': the same lengths counted forward from now. */
export function futureDisplay(range: string): string {
  const words = lengthWords(range);
  return words ? `Next ${words}` : range;
}

export function relativeRange(range: string): RelativeTimeRange {
  return { type: 'relative', display: relativeDisplay(range), range };
}

/** The past relative ranges of spec §9, in order. */
export const PAST_RANGE_OPTIONS: readonly RelativeTimeRange[] = PAST_RELATIVE_RANGES.map(relativeRange);
