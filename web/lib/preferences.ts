import { CARD_WIDTH, DATE_FORMATS, DISPLAY_DEFAULTS, type DateFormat } from '@common/constants';
import { useCallback, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The preferences menu of spec §2. Display preferences live in session storage (spec §9: a tab keeps its
 * own choices); 'show hidden components' lives in the URL (query showHiddenComponents=yes|no) because it
 * changes what a shared link shows.
 */
export interface DisplayPreferences {
  showDeletedConfigs: boolean;
  cardWidth: number;
  dateFormat: DateFormat;
  /** 'Browser' or an IANA zone name. */
  timeZone: string;
}

export const PREFERENCE_KEYS = {
  showDeletedConfigs: 'showDeletedConfigs',
  cardWidth: 'cardWidth',
  dateFormat: 'dateTimeFormat',
  timeZone: 'timezone',
} as const satisfies Record<keyof DisplayPreferences, string>;

export const SHOW_HIDDEN_COMPONENTS_PARAM = 'showHiddenComponents';

const yes = (value: string): boolean => value === 'yes';

export const PREFERENCE_DEFAULTS: DisplayPreferences = {
  showDeletedConfigs: yes(DISPLAY_DEFAULTS.showDeleted),
  cardWidth: DISPLAY_DEFAULTS.cardWidth,
  dateFormat: DISPLAY_DEFAULTS.dateFormat,
  timeZone: DISPLAY_DEFAULTS.timeZone,
};

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // Storage can be blocked by the browser's privacy settings; defaults still work.
    return undefined;
  }
}

function isDateFormat(value: string | null): value is DateFormat {
  return DATE_FORMATS.some((format) => format === value);
}

/** Snaps a width into the slider's range and steps (a hand-edited value must not break card layouts). */
export function clampCardWidth(value: number): number {
  if (!Number.isFinite(value)) return PREFERENCE_DEFAULTS.cardWidth;
  const stepped = CARD_WIDTH.min + Math.round((value - CARD_WIDTH.min) / CARD_WIDTH.step) * CARD_WIDTH.step;
  return Math.min(CARD_WIDTH.max, Math.max(CARD_WIDTH.min, stepped));
}

function readRaw(): string {
  const store = storage();
  return Object.values(PREFERENCE_KEYS)
    .map((key) => store?.getItem(key) ?? '')
    .join('\u0000');
}

/** Parses the stored strings; anything unreadable falls back to its default. */
export function readDisplayPreferences(): DisplayPreferences {
  const store = storage();
  const get = (key: string) => store?.getItem(key) ?? null;
  const showDeleted = get(PREFERENCE_KEYS.showDeletedConfigs);
  const width = get(PREFERENCE_KEYS.cardWidth);
  const format = get(PREFERENCE_KEYS.dateFormat);
  const zone = get(PREFERENCE_KEYS.timeZone);
  return {
    showDeletedConfigs: showDeleted === 'yes' ? true : showDeleted === 'no' ? false : PREFERENCE_DEFAULTS.showDeletedConfigs,
    cardWidth: width === null ? PREFERENCE_DEFAULTS.cardWidth : clampCardWidth(Number(width)),
    dateFormat: isDateFormat(format) ? format : PREFERENCE_DEFAULTS.dateFormat,
    timeZone: zone && zone.trim() !== '' ? zone : PREFERENCE_DEFAULTS.timeZone,
  };
}

// A tiny external store: session storage sends no events within the tab, so writes notify here.
const listeners = new Set<() => void>();
let cachedRaw: string | undefined;
let cached: DisplayPreferences = PREFERENCE_DEFAULTS;

function snapshot(): DisplayPreferences {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = readDisplayPreferences();
  }
  return cached;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setDisplayPreference<K extends keyof DisplayPreferences>(key: K, value: DisplayPreferences[K]): void {
  const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
  try {
    storage()?.setItem(PREFERENCE_KEYS[key], text);
  } catch {
    // A full or blocked storage keeps the previous value; nothing else to do.
  }
  for (const listener of listeners) listener();
}

/** Date format, time zone, card width and deleted-configs choice; usable outside the router. */
export function useDisplayPreferences(): DisplayPreferences {
  return useSyncExternalStore(subscribe, snapshot, () => PREFERENCE_DEFAULTS);
}

/** The URL-held toggle; absent means 'yes' (spec §2 default). */
export function useShowHiddenComponents(): [boolean, (show: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const show = params.get(SHOW_HIDDEN_COMPONENTS_PARAM) !== 'no';
  const setShow = useCallback(
    (next: boolean) => {
      setParams((current) => {
        const updated = new URLSearchParams(current);
        updated.set(SHOW_HIDDEN_COMPONENTS_PARAM, next ? 'yes' : 'no');
        return updated;
      });
    },
    [setParams],
  );
  return [show, setShow];
}

export interface Preferences extends DisplayPreferences {
  showHiddenComponents: boolean;
  setShowHiddenComponents: (show: boolean) => void;
  set: typeof setDisplayPreference;
}

/** All five preferences of the gear menu, with their setters. Needs the router (for the URL toggle). */
export function usePreferences(): Preferences {
  const display = useDisplayPreferences();
  const [showHiddenComponents, setShowHiddenComponents] = useShowHiddenComponents();
  return { ...display, showHiddenComponents, setShowHiddenComponents, set: setDisplayPreference };
}
