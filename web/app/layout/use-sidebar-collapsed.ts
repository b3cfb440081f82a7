import { useCallback, useState } from 'react';

/** Spec §2: the collapsed state is persisted as 'sidebarCollapsed' and defaults to expanded. */
export const SIDEBAR_COLLAPSED_KEY = 'sidebarCollapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setState] = useState(readCollapsed);
  const setCollapsed = useCallback((next: boolean) => {
    setState(next);
    try {
      localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(next));
    } catch {
      // Storage blocked: the choice lasts for this page view only.
    }
  }, []);
  return [collapsed, setCollapsed];
}
