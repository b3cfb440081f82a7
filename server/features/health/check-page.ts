import type pg from 'pg';
import { combinedTone, displayName, groupKeyFn, labelFilterPredicate, NO_GROUP, NO_VALUE, tabValueFn, TONE_RANK, type HealthTone, type LabelFilterEntry } from '../../../common/health-grouping';
import { buildPivot, pivotCellPredicate, type PivotAnswer } from '../../../common/health-pivot';
import { recentStatuses } from './recent';
import { alignDown, summarizeChecks, type CheckSummary, type StatsSource, type Summarized } from './summary';

/**
 * The Health page's list (POST /api/health/checks, docs/HEALTH.md): the checks that match the page's
 * filters, its tab and its group, sorted and paged on the server, with the counts the page shows beside
 * them (tabs, groups, label filters). The browser never holds more than a page of checks.
 */

export const PAGE_SORT_COLUMNS = ['name', 'status', 'uptime', 'latency', 'last_transition_time'] as const;
export type PageSortColumn = (typeof PAGE_SORT_COLUMNS)[number];

/** Built-in Group By fields; any other value is a label key. */
export { NO_GROUP, NO_VALUE };

export const GROUP_FIELDS = ['no-group', 'canary_name', 'name', 'description', 'type'] as const;
/** Built-in Tab By fields; any other value is a label key. */
export const TAB_FIELDS = ['namespace', 'agent_id'] as const;

/** At most this many values of a label key are offered as filters (the most frequent ones). */
export const LABEL_VALUES_MAX = 200;

/** A label filter of the request: 1 includes (values of one key are alternatives), -1 excludes. */
export type LabelFilter = LabelFilterEntry;

export interface CheckPageRequest {
  from: Date;
  to: Date;
  /** The range as asked (`1h`, two instants…): requests of the same range share their statistics. */
  rangeKey: string;
  query?: string | undefined;
  hidePassing?: boolean | undefined;
  labels: readonly LabelFilter[];
  tabBy: string;
  /** The tab's value; undefined is 'All'. */
  tab?: string | undefined;
  groupBy: string;
  /** The group whose checks are asked for; undefined answers the page of groups when grouped. */
  group?: string | undefined;
  sortBy: PageSortColumn;
  sortDesc: boolean;
  page: number;
  pageSize: number;
  /** Each listed check's newest this many results (its strip). */
  recent: number;
  /** The pivot's rows (docs/HEALTH.md "Pivot"): with it the answer is the pivot of the selected checks, not a page. */
  pivotBy?: string | undefined;
  /** The pivot's columns; absent: one 'All' column. */
  pivotLabel?: string | undefined;
  /** One pivot cell: the answer is a page of its checks (the list's order) instead of the pivot. */
  pivotCell?: { row: string; column: string } | undefined;
}

export type { HealthTone };

export interface CheckGroup {
  key: string;
  count: number;
  /** healthy or unhealthy when all its checks that ran agree, mixed otherwise, unknown when none ran. */
  status: HealthTone;
  /** Checks that passed every time in the range (the group row's uptime: passing/count). */
  passing: number;
  /** The slowest p95 of its checks (ms). */
  latency: number | null;
  last_transition_time: string | null;
}

export interface LabelOption {
  key: string;
  values: string[];
  /** True when every value is true or false: the filter is a toggle. */
  boolean: boolean;
  /** True when the key had more than LABEL_VALUES_MAX values: the most frequent are listed. */
  truncated?: boolean;
}

export interface CheckPageAnswer {
  /** The page's checks (of the group when one was asked for; none when grouped without one). */
  checks: CheckSummary[];
  /** Checks of the tab after every filter (of the group when one was asked for). */
  total: number;
  page: number;
  pageSize: number;
  /** The tabs' values with their counts, after the filters; `all` is the All tab's. */
  tabs: { all: number; values: Array<{ value: string; count: number }> };
  /** The page of groups when grouped and no group was asked for; `total` counts every group. */
  groups?: { total: number; items: CheckGroup[] };
  /** Label keys and values of the checks before the label filters (so every value stays offered). */
  labels: LabelOption[];
  /** With pivotBy (and no pivotCell): the grid of the selected checks, bounded (common/health-pivot.ts). */
  pivot?: PivotAnswer;
  from: string;
  to: string;
  source: StatsSource;
  estimate: boolean;
  duration: number;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function tone(check: CheckSummary): HealthTone {
  return check.status ?? 'unknown';
}

function uptimeRatio(check: CheckSummary): number | undefined {
  const total = check.uptime.passed + check.uptime.failed;
  return total > 0 ? check.uptime.passed / total : undefined;
}

const time = (value: string | null) => (value ? Date.parse(value) : undefined);

const isBooleanText = (value: string) => value === 'true' || value === 'false';

function labelOptions(checks: readonly CheckSummary[]): LabelOption[] {
  const byKey = new Map<string, Map<string, number>>();
  for (const check of checks) {
    for (const key in check.labels) {
      if (!Object.hasOwn(check.labels, key)) continue;
      const value = check.labels[key] ?? '';
      let values = byKey.get(key);
      if (!values) byKey.set(key, (values = new Map()));
      values.set(value, (values.get(value) ?? 0) + 1);
    }
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, counts]) => {
      let entries = [...counts.entries()];
      const truncated = entries.length > LABEL_VALUES_MAX;
      if (truncated) entries = entries.sort((a, b) => b[1] - a[1]).slice(0, LABEL_VALUES_MAX);
      const values = entries.map(([value]) => value).sort((a, b) => collator.compare(a, b));
      return { key, values, boolean: values.every(isBooleanText), ...(truncated ? { truncated } : {}) };
    });
}

/**
 * Every check's place in name order, computed once for a set of names and kept while the names stay
 * the same: sorting 50,000 names with a collator costs far more than comparing their places.
 */
let nameOrder: { names: Map<string, string>; rank: Map<string, number> } | undefined;

function nameRanks(checks: readonly CheckSummary[]): Map<string, number> {
  const known = nameOrder;
  if (known && checks.every((check) => known.names.get(check.id) === displayName(check))) return known.rank;
  const names = new Map<string, string>(known?.names);
  for (const check of checks) names.set(check.id, displayName(check));
  const ids = [...names.keys()].sort((a, b) => collator.compare(names.get(a) ?? '', names.get(b) ?? '') || (a < b ? -1 : a > b ? 1 : 0));
  const rank = new Map(ids.map((id, index) => [id, index]));
  nameOrder = { names, rank };
  return rank;
}

type SortValue = (check: CheckSummary) => number | undefined;

/** Orders like the page's columns: missing values last in either direction, ties by name. */
function sortInPlace<T>(items: readonly T[], value: (item: T) => number | undefined, name: (item: T) => number, desc: boolean): T[] {
  const keyed = items.map((item) => ({ item, value: value(item), name: name(item) }));
  keyed.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) return a.value === b.value ? a.name - b.name : a.value === undefined ? 1 : -1;
    return (desc ? b.value - a.value : a.value - b.value) || a.name - b.name;
  });
  return keyed.map((entry) => entry.item);
}

function checkSortValue(sortBy: PageSortColumn, rank: Map<string, number>): SortValue {
  switch (sortBy) {
    case 'name':
      return (check) => rank.get(check.id) ?? 0;
    case 'status':
      return (check) => TONE_RANK[tone(check)];
    case 'uptime':
      return uptimeRatio;
    case 'latency':
      return (check) => check.latency.p95 ?? undefined;
    case 'last_transition_time':
      return (check) => time(check.last_transition_time);
  }
}

function groupsOf(checks: readonly CheckSummary[], keyOf: (check: CheckSummary) => string): CheckGroup[] {
  const groups = new Map<string, CheckGroup & { healthy: boolean; unhealthy: boolean }>();
  for (const check of checks) {
    const key = keyOf(check);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, count: 0, status: 'unknown', passing: 0, latency: null, last_transition_time: null, healthy: false, unhealthy: false }));
    group.count += 1;
    if (check.status === 'healthy') group.healthy = true;
    else if (check.status === 'unhealthy') group.unhealthy = true;
    if (check.uptime.failed === 0 && check.uptime.passed > 0) group.passing += 1;
    const p95 = check.latency.p95;
    if (p95 !== null && (group.latency === null || p95 > group.latency)) group.latency = p95;
    const transition = check.last_transition_time;
    if (transition && (!group.last_transition_time || transition > group.last_transition_time)) group.last_transition_time = transition;
  }
  return [...groups.values()].map(({ healthy, unhealthy, ...group }) => ({ ...group, status: combinedTone(healthy, unhealthy) }));
}

function groupSortValue(sortBy: PageSortColumn, rank: Map<string, number>): (group: CheckGroup) => number | undefined {
  switch (sortBy) {
    case 'name':
      return (group) => rank.get(group.key) ?? 0;
    case 'status':
      return (group) => TONE_RANK[group.status];
    case 'uptime':
      return (group) => group.passing / group.count;
    case 'latency':
      return (group) => group.latency ?? undefined;
    case 'last_transition_time':
      return (group) => time(group.last_transition_time);
  }
}

/** A summary kept for the requests after it: every page, sort, tab, group and label filter of one search. */
interface Shared {
  at: number;
  summarized: Summarized;
  from: Date;
  to: Date;
  labels: LabelOption[];
  /** Every check's place in name order, and the checks in each order asked so far. */
  rank?: Map<string, number>;
  orders: Map<string, CheckSummary[]>;
}

interface SharedSlot {
  value?: Shared;
  computing?: Promise<Shared>;
}

/** A kept summary answers at once for this long after it was computed; after it, the next request computes again. */
export const SHARED_FRESH_MS = 5_000;
/** Past the fresh time, it still answers while a new one is computed, for this long (then the request waits). */
export const SHARED_STALE_MS = 30_000;
const SHARED_KEYS_MAX = 32;
const shared = new WeakMap<pg.Pool, Map<string, SharedSlot>>();

/**
 * The statistics of every check of a search over a range, computed once and shared by the requests that
 * follow for a few seconds (SHARED_FRESH_MS): paging, sorting, tabs, groups and label filters then cost a
 * pass over them in memory instead of reading 50,000 checks' statistics again. Older than that, a request
 * is answered from the kept one while a new one is computed (up to SHARED_STALE_MS), so the numbers are
 * at most a few seconds behind, as the rolling p95 already is (summary.ts).
 */
async function sharedSummary(pool: pg.Pool, request: CheckPageRequest): Promise<Shared> {
  let slots = shared.get(pool);
  if (!slots) shared.set(pool, (slots = new Map()));
  const key = JSON.stringify([request.rangeKey, request.query?.trim() ?? '', Boolean(request.hidePassing)]);
  let slot = slots.get(key);
  if (!slot) {
    if (slots.size >= SHARED_KEYS_MAX) {
      const oldest = [...slots.entries()].sort(([, a], [, b]) => (a.value?.at ?? 0) - (b.value?.at ?? 0))[0];
      if (oldest) slots.delete(oldest[0]);
    }
    slots.set(key, (slot = {}));
  }
  const held = slot;
  const compute = () => {
    held.computing ??= summarizeChecks(pool, { from: request.from, to: request.to, query: request.query, hidePassing: request.hidePassing })
      .then((summarized) => {
        const value: Shared = { at: Date.now(), summarized, from: request.from, to: request.to, labels: labelOptions(summarized.summaries), orders: new Map() };
        // The default order is ready before the first request of the new statistics asks for it.
        sortedChecks(value, 'name', false);
        return (held.value = value);
      })
      .finally(() => {
        held.computing = undefined;
      });
    return held.computing;
  };
  const age = held.value ? Date.now() - held.value.at : Infinity;
  if (held.value && age < SHARED_FRESH_MS) return held.value;
  if (held.value && age < SHARED_STALE_MS) {
    compute().catch(() => undefined);
    return held.value;
  }
  return compute();
}

/** The shared checks in one order (kept with them: sorting 50,000 checks is the costliest step left). */
function sortedChecks(entry: Shared, sortBy: PageSortColumn, sortDesc: boolean): CheckSummary[] {
  const key = `${sortBy}:${sortDesc}`;
  let sorted = entry.orders.get(key);
  if (!sorted) {
    const rank = (entry.rank ??= nameRanks(entry.summarized.summaries));
    sorted = sortInPlace(entry.summarized.summaries, checkSortValue(sortBy, rank), (check) => rank.get(check.id) ?? 0, sortDesc);
    entry.orders.set(key, sorted);
  }
  return sorted;
}

/** One page of the Health list, with its tabs, groups and label options (see CheckPageAnswer). */
export async function checkPage(pool: pg.Pool, request: CheckPageRequest): Promise<CheckPageAnswer> {
  const started = performance.now();
  const entry = await sharedSummary(pool, request);
  const { summarized, from, to, labels } = entry;
  const { checks: rows, source, estimate, endsNow } = summarized;
  const passLabels = labelFilterPredicate(request.labels);
  const valueOfTab = tabValueFn(request.tabBy);
  const pivoting = request.pivotBy !== undefined;
  // The pivot does not group: it is built from every check of the tab.
  const groupKey = pivoting ? null : groupKeyFn(request.groupBy);
  const grouped = groupKey !== null && request.group === undefined;
  const inCell = request.pivotBy !== undefined && request.pivotCell ? pivotCellPredicate(request.pivotBy, request.pivotLabel, request.pivotCell.row, request.pivotCell.column) : undefined;

  // One pass over the checks in the asked order: the label filters, the tabs' counts, the tab, the group.
  const tabCounts = new Map<string, number>();
  let all = 0;
  const selected: CheckSummary[] = [];
  for (const check of sortedChecks(entry, request.sortBy, request.sortDesc)) {
    if (request.labels.length > 0 && !passLabels(check.labels)) continue;
    all += 1;
    const value = valueOfTab(check);
    if (value !== undefined && value !== '') tabCounts.set(value, (tabCounts.get(value) ?? 0) + 1);
    if (request.tab !== undefined && value !== request.tab) continue;
    if (groupKey && request.group !== undefined && groupKey(check) !== request.group) continue;
    if (inCell && !inCell(check)) continue;
    selected.push(check);
  }
  const tabs = {
    all,
    values: [...tabCounts.entries()].map(([value, count]) => ({ value, count })).sort((a, b) => collator.compare(a.value, b.value)),
  };

  const start = request.page * request.pageSize;
  const answer = { page: request.page, pageSize: request.pageSize, tabs, labels, from: alignDown(from, source).toISOString(), to: to.toISOString(), source, estimate };
  const finish = <T extends object>(rest: T) => ({ ...answer, ...rest, duration: Math.round(performance.now() - started) });

  if (request.pivotBy !== undefined && !inCell) {
    return finish({ checks: [], total: selected.length, pivot: buildPivot(selected, request.pivotBy, request.pivotLabel) });
  }

  if (grouped) {
    const groups = groupsOf(selected, groupKey);
    const keyRank = new Map([...groups].sort((a, b) => collator.compare(a.key, b.key)).map((group, index) => [group.key, index]));
    const sorted = sortInPlace(groups, groupSortValue(request.sortBy, keyRank), (group) => keyRank.get(group.key) ?? 0, request.sortDesc);
    return finish({ checks: [], total: selected.length, groups: { total: groups.length, items: sorted.slice(start, start + request.pageSize) } });
  }

  let page = selected.slice(start, start + request.pageSize);
  if (request.recent > 0 && page.length > 0) {
    const ids = new Set(page.map((check) => check.id));
    const recent = await recentStatuses(pool, rows.filter((row) => ids.has(row.id)), endsNow ? new Date() : to, request.recent, endsNow);
    // Copies: the shared checks stay as they are for the other requests.
    page = page.map((check) => ({ ...check, recent_statuses: recent.get(check.id) ?? { time: [], status: [] } }));
  }
  return finish({ checks: page, total: selected.length });
}
