import type { SortingState } from '@tanstack/react-table';

/**
 * Single-column sorting (spec §2: one column, removable) as the two URL parameters pages keep:
 * `sortBy` (a column id) and `sortOrder` ('asc' | 'desc').
 */
export function sortingFromParams(sortBy: string | null | undefined, sortOrder: string | null | undefined, allowed?: readonly string[]): SortingState {
  if (!sortBy) return [];
  if (allowed && !allowed.includes(sortBy)) return [];
  return [{ id: sortBy, desc: sortOrder === 'desc' }];
}

export function sortingToParams(sorting: SortingState): { sortBy?: string; sortOrder?: 'asc' | 'desc' } {
  const first = sorting[0];
  if (!first) return {};
  return { sortBy: first.id, sortOrder: first.desc ? 'desc' : 'asc' };
}
