import { QUICK_RANGE_LABELS } from '@common/constants';
import {
  endOfDay,
  endOfMonth,
  endOfWeek,
  endOfYear,
  startOfDay,
  startOfMonth,
  startOfWeek,
  startOfYear,
  sub,
} from 'date-fns';
import type { MappedTimeRange } from './types';

/** Weeks start on Monday (ISO 8601), the usual convention of operations dashboards. */
const WEEK = { weekStartsOn: 1 } as const;

const ROUNDING = {
  d: [startOfDay, endOfDay],
  w: [(d: Date) => startOfWeek(d, WEEK), (d: Date) => endOfWeek(d, WEEK)],
  M: [startOfMonth, endOfMonth],
  y: [startOfYear, endOfYear],
} as const;
const SHIFT = { d: 'days', w: 'weeks', M: 'months', y: 'years' } as const;

/** 'now', 'now/d', 'now-1d/d', 'now-1w/w', 'now-1M/M', 'now-1y/y', 'now-7d/d'. */
const EXPRESSION = /^now(?:-(\d{1,3})([dwMy]))?(?:\/([dwMy]))?$/;

function isRoundUnit(value: string | undefined): value is keyof typeof ROUNDING {
  return value !== undefined && Object.hasOwn(ROUNDING, value);
}

/**
 * Evaluates a mapped-range bound at `now`. A rounded `from` snaps to the start of the unit and a rounded
 * `to` to its end, so now-1d/d .. now-1d/d is the whole of yesterday. Throws on anything else (spec §8).
 */
export function evaluateExpression(expression: string, now: Date, edge: 'from' | 'to'): Date {
  const match = EXPRESSION.exec(expression);
  if (!match) throw new Error('Invalid mapped time range');
  const [, amount, shiftUnit, roundUnit] = match;
  let date = now;
  if (amount !== undefined && isRoundUnit(shiftUnit)) date = sub(date, { [SHIFT[shiftUnit]]: Number(amount) });
  if (roundUnit !== undefined) {
    if (!isRoundUnit(roundUnit)) throw new Error('Invalid mapped time range');
    date = ROUNDING[roundUnit][edge === 'from' ? 0 : 1](date);
  }
  return date;
}

type QuickLabel = (typeof QUICK_RANGE_LABELS)[number];

const QUICK_EXPRESSIONS: Record<QuickLabel, [string, string]> = {
  Yesterday: ['now-1d/d', 'now-1d/d'],
  'Day before yesterday': ['now-2d/d', 'now-2d/d'],
  'This day last week': ['now-7d/d', 'now-7d/d'],
  'Previous week': ['now-1w/w', 'now-1w/w'],
  'Previous month': ['now-1M/M', 'now-1M/M'],
  'Previous year': ['now-1y/y', 'now-1y/y'],
  Today: ['now/d', 'now/d'],
  'Today so far': ['now/d', 'now'],
  'This week': ['now/w', 'now/w'],
  'This week so far': ['now/w', 'now'],
  'This month': ['now/M', 'now/M'],
  'This month so far': ['now/M', 'now'],
  'This year': ['now/y', 'now/y'],
  'This year so far': ['now/y', 'now'],
};

/** The quick ranges of spec §9, in the spec's order. */
export const QUICK_RANGES: readonly MappedTimeRange[] = QUICK_RANGE_LABELS.map((display) => {
  const [from, to] = QUICK_EXPRESSIONS[display];
  return { type: 'mapped', display, from, to };
});

/** The quick range with these bounds, to restore its name from a URL. */
export function findQuickRange(from: string, to: string): MappedTimeRange | undefined {
  return QUICK_RANGES.find((range) => range.from === from && range.to === to);
}
