import { formatLatency, formatUptime } from './format';
import { combinedTone, displayName, groupKeyFn, NO_GROUP, NO_VALUE, type GroupableCheck, type HealthTone } from './health-grouping';

/**
 * The Health page's pivot (docs/HEALTH.md "Pivot"; the spec names its parameters and no behaviour): rows
 * are the values of `pivotBy` (a group-by field, namespace, agent or a label key), columns the values of
 * `pivotLabel` (the same kinds; one 'All' column without it), and each cell sums up the checks in both.
 * Built on the server (POST /api/health/checks with pivotBy) from the list's filtered checks; the browser
 * renders the answer.
 */

/** What the pivot reads of a check, beyond what grouping reads. */
export interface PivotableCheck extends GroupableCheck {
  id: string;
  status: 'healthy' | 'unhealthy' | null;
  uptime: { passed: number; failed: number };
  latency: { p95: number | null };
}

export type PivotCellType = 'health' | 'uptime' | 'latency';

/** The column without `pivotLabel`. */
export const ALL_COLUMN = 'All';
/** Each cell carries its first this many checks (its popover's first page); the others are asked by page. */
export const PIVOT_CELL_CHECKS = 20;
/** The grid's bounds: rows and columns past these are cut (the answer says how many there were). */
export const PIVOT_MAX_ROWS = 200;
export const PIVOT_MAX_COLUMNS = 25;
/**
 * The checks listed in the whole answer, cells in row order: past it a cell carries none and its popover
 * asks for them (a full 200 × 25 grid of 50,000 checks would otherwise list 34,000 of them, about 4 MB).
 */
export const PIVOT_LISTED_MAX = 1_000;

/** A check as a cell lists it. */
export interface PivotCellCheck {
  id: string;
  name: string;
  status: 'healthy' | 'unhealthy' | null;
}

/** A non-empty cell: `row` and `column` index the answer's rows and columns. */
export interface PivotCell {
  row: number;
  column: number;
  count: number;
  /** healthy or unhealthy when all its checks that ran agree, mixed otherwise, unknown when none ran. */
  status: HealthTone;
  /** Results that passed and failed over the range, summed over its checks. */
  passed: number;
  failed: number;
  /** The slowest p95 of its checks (ms). */
  latency: number | null;
  /** Its first PIVOT_CELL_CHECKS checks, in the list's order; none past PIVOT_LISTED_MAX in the answer. */
  checks: PivotCellCheck[];
}

export interface PivotAnswer {
  rows: string[];
  columns: string[];
  /** Rows and columns before the bounds: more than rows.length / columns.length means the grid was cut. */
  totalRows: number;
  totalColumns: number;
  cells: PivotCell[];
}

/** The pivot's dimension: namespace, agent, or a Group By field or label key (NO_VALUE where it has none). */
export function pivotDimensionFn(key: string): (check: GroupableCheck) => string {
  if (key === 'namespace') return (check) => check.namespace ?? NO_VALUE;
  if (key === 'agent_id') return (check) => check.agent_id ?? NO_VALUE;
  return groupKeyFn(key) ?? (() => NO_VALUE);
}

/** The dimensions a pivot may use: the group-by fields, namespace and the label keys. */
export function pivotDimensions(groupOptions: readonly string[]): string[] {
  return ['namespace', ...groupOptions.filter((option) => option !== NO_GROUP && option !== 'namespace')];
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Numeric-aware order, the no-value entry last. */
export function comparePivotValues(a: string, b: string): number {
  return a === NO_VALUE ? (b === NO_VALUE ? 0 : 1) : b === NO_VALUE ? -1 : collator.compare(a, b);
}

/** A check's row and column in the pivot. */
function pivotAxes(pivotBy: string, pivotLabel: string | undefined): { rowOf: (check: GroupableCheck) => string; columnOf: (check: GroupableCheck) => string } {
  return { rowOf: pivotDimensionFn(pivotBy), columnOf: pivotLabel ? pivotDimensionFn(pivotLabel) : () => ALL_COLUMN };
}

/** The row and column of each check: the predicate a cell's own page uses. */
export function pivotCellPredicate(pivotBy: string, pivotLabel: string | undefined, row: string, column: string): (check: GroupableCheck) => boolean {
  const { rowOf, columnOf } = pivotAxes(pivotBy, pivotLabel);
  return (check) => rowOf(check) === row && columnOf(check) === column;
}

interface Building {
  count: number;
  healthy: boolean;
  unhealthy: boolean;
  passed: number;
  failed: number;
  latency: number | null;
  checks: PivotCellCheck[];
}

/** The pivot of the checks (in the list's order), bounded to maxRows × maxColumns. */
export function buildPivot(
  checks: readonly PivotableCheck[],
  pivotBy: string,
  pivotLabel: string | undefined,
  bounds: { maxRows?: number; maxColumns?: number; cellChecks?: number; listed?: number } = {},
): PivotAnswer {
  const { maxRows = PIVOT_MAX_ROWS, maxColumns = PIVOT_MAX_COLUMNS, cellChecks = PIVOT_CELL_CHECKS, listed = PIVOT_LISTED_MAX } = bounds;
  const { rowOf, columnOf } = pivotAxes(pivotBy, pivotLabel);
  const cells = new Map<string, Map<string, Building>>();
  const columnSet = new Set<string>();
  for (const check of checks) {
    const row = rowOf(check);
    const column = columnOf(check);
    columnSet.add(column);
    let inRow = cells.get(row);
    if (!inRow) cells.set(row, (inRow = new Map()));
    let cell = inRow.get(column);
    if (!cell) inRow.set(column, (cell = { count: 0, healthy: false, unhealthy: false, passed: 0, failed: 0, latency: null, checks: [] }));
    cell.count += 1;
    if (check.status === 'healthy') cell.healthy = true;
    else if (check.status === 'unhealthy') cell.unhealthy = true;
    cell.passed += check.uptime.passed;
    cell.failed += check.uptime.failed;
    const p95 = check.latency.p95;
    if (p95 !== null && (cell.latency === null || p95 > cell.latency)) cell.latency = p95;
    if (cell.checks.length < cellChecks) cell.checks.push({ id: check.id, name: displayName(check), status: check.status });
  }
  const allRows = [...cells.keys()].sort(comparePivotValues);
  const allColumns = [...columnSet].sort(comparePivotValues);
  const rows = allRows.slice(0, maxRows);
  const columns = allColumns.slice(0, maxColumns);
  const answer: PivotCell[] = [];
  let budget = listed;
  rows.forEach((row, r) => {
    const inRow = cells.get(row);
    columns.forEach((column, c) => {
      const cell = inRow?.get(column);
      if (!cell) return;
      const { healthy, unhealthy, checks: first, ...rest } = cell;
      const checks = first.length <= budget ? first : [];
      budget -= checks.length;
      answer.push({ row: r, column: c, ...rest, checks, status: combinedTone(healthy, unhealthy) });
    });
  });
  return { rows, columns, totalRows: allRows.length, totalColumns: allColumns.length, cells: answer };
}

export interface PivotCellSummary {
  tone: HealthTone;
  text: string;
}

/** What a cell shows: the health of its checks (with their count), their combined uptime, or the slowest p95. */
export function summarisePivotCell(cell: Pick<PivotCell, 'count' | 'status' | 'passed' | 'failed' | 'latency'>, type: PivotCellType): PivotCellSummary {
  switch (type) {
    case 'health':
      return { tone: cell.status, text: cell.count > 1 ? String(cell.count) : '' };
    case 'uptime':
      return { tone: cell.status, text: formatUptime(cell.passed, cell.failed) };
    case 'latency':
      return { tone: cell.status, text: formatLatency(cell.latency) };
  }
}
