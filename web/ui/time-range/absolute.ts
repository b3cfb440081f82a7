import { format, isValid, parse } from 'date-fns';
import type { AbsoluteTimeRange } from './types';

/** What the From/To inputs show and accept; seconds and minutes may be left out when typing. */
export const INPUT_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const ACCEPTED = [INPUT_FORMAT, 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd'] as const;

/** A typed local date-time, or null when it is not one of the accepted shapes. */
export function parseInputDate(text: string): Date | null {
  const trimmed = text.trim();
  for (const pattern of ACCEPTED) {
    const date = parse(trimmed, pattern, new Date(0));
    if (isValid(date) && format(date, pattern) === trimmed) return date;
  }
  return null;
}

export function formatInputDate(date: Date): string {
  return format(date, INPUT_FORMAT);
}

export function absoluteRange(from: Date, to: Date): AbsoluteTimeRange {
  return { type: 'absolute', display: `${formatInputDate(from)} to ${formatInputDate(to)}`, from: from.toISOString(), to: to.toISOString() };
}
