import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@common/constants';
import { useCallback, useState } from 'react';

/** Storage key of the table page size shared by every table (spec §9: persisted locally). */
export const PAGE_SIZE_STORAGE_KEY = 'pageSize';

function isPageSize(value: number): boolean {
  return PAGE_SIZES.some((size) => size === value);
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can throw when the browser blocks it (privacy mode); the default then applies.
    return null;
  }
}

/** The page size the user last chose, if it is one of spec §9's sizes; otherwise the fallback. */
export function readStoredPageSize(fallback: number = DEFAULT_PAGE_SIZE, key: string = PAGE_SIZE_STORAGE_KEY): number {
  const stored = Number(storage()?.getItem(key) ?? Number.NaN);
  return isPageSize(stored) ? stored : fallback;
}

export function storePageSize(size: number, key: string = PAGE_SIZE_STORAGE_KEY): void {
  if (isPageSize(size)) storage()?.setItem(key, String(size));
}

/** A page size kept in localStorage across visits. */
export function usePersistedPageSize(fallback: number = DEFAULT_PAGE_SIZE, key: string = PAGE_SIZE_STORAGE_KEY): [number, (size: number) => void] {
  const [size, setSize] = useState(() => readStoredPageSize(fallback, key));
  const update = useCallback(
    (next: number) => {
      storePageSize(next, key);
      setSize(next);
    },
    [key],
  );
  return [size, update];
}
