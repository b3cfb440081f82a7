import { useCallback, useSyncExternalStore } from 'react';

/** Spec §7: refresh rates are written with the units s, m, h, d and w; 'None' never refreshes. */
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const RATE = /^(\d{1,4})([smhdw])$/;

export const REFRESH_NONE = 'None';
export const REFRESH_RATE_OPTIONS = [REFRESH_NONE, '15s', '30s', '1m', '5m', '15m', '30m', '1h', '1d'] as const;

function isUnit(unit: string): unit is keyof typeof UNIT_MS {
  return Object.hasOwn(UNIT_MS, unit);
}

/** Milliseconds between refreshes, or 0 for 'None' and anything unreadable. */
export function refreshRateMs(rate: string): number {
  const match = RATE.exec(rate.trim());
  const unit = match?.[2];
  if (!match || !unit || !isUnit(unit)) return 0;
  return Number(match[1]) * UNIT_MS[unit];
}

/**
 * The chosen rate is a habit of this browser rather than part of a shared view (spec §2 lists the
 * page's URL parameters, and the rate is not one), so it is kept in local storage.
 */
export const REFRESH_STORAGE_KEY = 'health.refreshRate';

const listeners = new Set<() => void>();
/** The choice when storage is blocked: it lasts until the page reloads. */
let unstored: string | undefined;

function read(): string {
  try {
    const stored = localStorage.getItem(REFRESH_STORAGE_KEY) ?? unstored;
    return stored && (stored === REFRESH_NONE || refreshRateMs(stored) > 0) ? stored : REFRESH_NONE;
  } catch {
    return unstored ?? REFRESH_NONE;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRefreshRate(): [string, (rate: string) => void] {
  const rate = useSyncExternalStore(subscribe, read, () => REFRESH_NONE);
  const setRate = useCallback((next: string) => {
    unstored = next;
    try {
      localStorage.setItem(REFRESH_STORAGE_KEY, next);
    } catch {
      // Blocked storage: `unstored` holds the choice.
    }
    for (const listener of listeners) listener();
  }, []);
  return [rate, setRate];
}
