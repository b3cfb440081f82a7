// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { clampCardWidth, PREFERENCE_DEFAULTS, PREFERENCE_KEYS, readDisplayPreferences, setDisplayPreference, usePreferences } from './preferences';

function wrapper(path: string) {
  return ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>;
}

describe('preferences', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('has the spec §9 defaults', () => {
    const { result } = renderHook(() => usePreferences(), { wrapper: wrapper('/') });
    expect(result.current.showHiddenComponents).toBe(true);
    expect(result.current.showDeletedConfigs).toBe(false);
    expect(result.current.cardWidth).toBe(554);
    expect(result.current.dateFormat).toBe('timestamp');
    expect(result.current.timeZone).toBe('Browser');
    expect(PREFERENCE_DEFAULTS).toEqual({ showDeletedConfigs: false, cardWidth: 554, dateFormat: 'timestamp', timeZone: 'Browser' });
  });

  it('keeps display preferences in session storage and updates every reader', () => {
    const { result } = renderHook(() => usePreferences(), { wrapper: wrapper('/') });
    act(() => {
      result.current.set('dateFormat', 'full');
      result.current.set('showDeletedConfigs', true);
      result.current.set('cardWidth', 300);
      result.current.set('timeZone', 'Asia/Kolkata');
    });
    expect(result.current.dateFormat).toBe('full');
    expect(result.current.showDeletedConfigs).toBe(true);
    expect(sessionStorage.getItem(PREFERENCE_KEYS.dateFormat)).toBe('full');
    expect(sessionStorage.getItem(PREFERENCE_KEYS.showDeletedConfigs)).toBe('yes');
    expect(sessionStorage.getItem(PREFERENCE_KEYS.cardWidth)).toBe('300');
    expect(sessionStorage.getItem(PREFERENCE_KEYS.timeZone)).toBe('Asia/Kolkata');
    expect(localStorage.length).toBe(0);
  });

  it('falls back to defaults for unreadable stored values', () => {
    sessionStorage.setItem(PREFERENCE_KEYS.dateFormat, 'weird');
    sessionStorage.setItem(PREFERENCE_KEYS.cardWidth, 'wide');
    sessionStorage.setItem(PREFERENCE_KEYS.showDeletedConfigs, 'maybe');
    expect(readDisplayPreferences()).toEqual(PREFERENCE_DEFAULTS);
    setDisplayPreference('cardWidth', 9999);
    expect(readDisplayPreferences().cardWidth).toBe(768);
    expect(clampCardWidth(100)).toBe(250);
    expect(clampCardWidth(555)).toBe(556);
  });

  it('reads and writes showHiddenComponents in the URL (yes/no, absent means yes)', () => {
    const { result } = renderHook(() => ({ preferences: usePreferences(), location: useLocation() }), { wrapper: wrapper('/health?showHiddenComponents=no') });
    expect(result.current.preferences.showHiddenComponents).toBe(false);
    act(() => result.current.preferences.setShowHiddenComponents(true));
    expect(result.current.preferences.showHiddenComponents).toBe(true);
    expect(result.current.location.search).toBe('?showHiddenComponents=yes');
  });
});
