import { RECENT_TIME_RANGES_KEPT } from '@common/constants';
import type { TimeRangeValue } from './types';

export const RECENT_STORAGE_KEY = 'recentTimeRanges';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Storage is outside our control (other versions, hand edits): keep only well-formed entries. */
function toTimeRange(value: unknown): TimeRangeValue | null {
  if (!isRecord(value) || typeof value.display !== 'string') return null;
  const { type, display, range, from, to } = value;
  if (type === 'relative' && typeof range === 'string') return { type, display, range };
  if ((type === 'absolute' || type === 'mapped') && typeof from === 'string' && typeof to === 'string') return { type, display, from, to };
  return null;
}

export function sameRange(a: TimeRangeValue, b: TimeRangeValue): boolean {
  if (a.type === 'relative') return b.type === 'relative' && a.range === b.range;
  if (b.type === 'relative') return false;
  return a.type === b.type && a.from === b.from && a.to === b.to;
}

export function readRecentRanges(): TimeRangeValue[] {
  const raw = storage()?.getItem(RECENT_STORAGE_KEY);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.map(toTimeRange).filter((v): v is TimeRangeValue => v !== null).slice(0, RECENT_TIME_RANGES_KEPT);
  } catch {
    return [];
  }
}

/** Puts a range first in the recent list, without duplicates, keeping 5 (spec §9). */
export function rememberRange(value: TimeRangeValue): TimeRangeValue[] {
  const next = [value, ...readRecentRanges().filter((r) => !sameRange(r, value))].slice(0, RECENT_TIME_RANGES_KEPT);
  storage()?.setItem(RECENT_STORAGE_KEY, JSON.stringify(next));
  return next;
}
