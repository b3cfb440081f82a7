import type { CheckSummary } from '../api/schema';
import { checkTone, displayName, TONE_RANK, uptimeRatio } from './checks';
import type { SortColumn } from './params';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

type Key = (check: CheckSummary) => number | string | undefined;
const KEYS: Record<SortColumn, Key> = {
  name: displayName,
  status: (check) => TONE_RANK[checkTone(check)],
  uptime: uptimeRatio,
  latency: (check) => check.latency.p95 ?? undefined,
  last_transition_time: (check) => (check.last_transition_time ? Date.parse(check.last_transition_time) : undefined),
};

/**
 * The cards' and the pivot's order, the same as the table's columns sort: missing values last in
 * either direction, ties by name.
 */
export function sortChecks(checks: readonly CheckSummary[], sortBy: SortColumn, sortDesc: boolean): CheckSummary[] {
  const key = KEYS[sortBy];
  const keyed = checks.map((check) => ({ check, value: key(check), name: displayName(check) }));
  keyed.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) return a.value === b.value ? collator.compare(a.name, b.name) : a.value === undefined ? 1 : -1;
    const order = typeof a.value === 'string' || typeof b.value === 'string' ? collator.compare(String(a.value), String(b.value)) : a.value - b.value;
    return (sortDesc ? -order : order) || collator.compare(a.name, b.name);
  });
  return keyed.map((entry) => entry.check);
}

/**
 * A click on a column header of the grouped table, as the data table's headers do: another column starts
 * ascending for the name and descending for the numbers, a second click turns it, a third removes the
 * sort (undefined: name ascending again).
 */
export function nextSort(current: { sortBy: SortColumn; sortDesc: boolean }, column: SortColumn): { sortBy: SortColumn; sortDesc: boolean } | undefined {
  const firstDesc = column !== 'name';
  if (current.sortBy !== column) return { sortBy: column, sortDesc: firstDesc };
  if (current.sortDesc === firstDesc) return { sortBy: column, sortDesc: !firstDesc };
  return undefined;
}
