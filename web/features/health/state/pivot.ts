import { formatLatency, formatUptime } from '@common/format';
import type { CheckSummary } from '../api/schema';
import { groupKeyFn, groupTone, NO_GROUP, NO_VALUE, type HealthTone } from './checks';
import type { PivotCellType } from './params';

/**
 * The pivot (docs/HEALTH.md "Pivot"; the spec names its parameters and no behaviour): rows are the values
 * of `pivotBy` (a group-by field, namespace, or a label key), columns the values of `pivotLabel` (the
 * same kinds; one 'All' column without it), and each cell sums up the checks in both.
 */
export function dimensionFn(key: string): (check: CheckSummary) => string {
  if (key === 'namespace') return (check) => check.namespace;
  if (key === 'agent_id') return (check) => check.agent_id;
  return groupKeyFn(key) ?? (() => NO_VALUE);
}

/** The dimensions a pivot may use: the group-by fields, namespace and the label keys. */
export function pivotDimensions(groupOptions: readonly string[]): string[] {
  return ['namespace', ...groupOptions.filter((option) => option !== NO_GROUP && option !== 'namespace')];
}

export const ALL_COLUMN = 'All';

export interface Pivot {
  rows: string[];
  columns: string[];
  cell: (row: string, column: string) => CheckSummary[] | undefined;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function buildPivot(checks: readonly CheckSummary[], pivotBy: string, pivotLabel: string | undefined): Pivot {
  const rowOf = dimensionFn(pivotBy);
  const columnOf = pivotLabel ? dimensionFn(pivotLabel) : () => ALL_COLUMN;
  const cells = new Map<string, CheckSummary[]>();
  const rows = new Set<string>();
  const columns = new Set<string>();
  for (const check of checks) {
    const row = rowOf(check);
    const column = columnOf(check);
    rows.add(row);
    columns.add(column);
    const key = `${row}\u0000${column}`;
    const list = cells.get(key);
    if (list) list.push(check);
    else cells.set(key, [check]);
  }
  const sorted = (values: Set<string>) => [...values].sort((a, b) => (a === NO_VALUE ? 1 : b === NO_VALUE ? -1 : collator.compare(a, b)));
  return { rows: sorted(rows), columns: sorted(columns), cell: (row, column) => cells.get(`${row}\u0000${column}`) };
}

export interface PivotCellSummary {
  tone: HealthTone;
  text: string;
}

/** What a cell shows: the health of its checks (with their count), their combined uptime, or the slowest p95. */
export function summarisePivotCell(checks: readonly CheckSummary[], type: PivotCellType): PivotCellSummary {
  const tone = groupTone(checks);
  switch (type) {
    case 'health':
      return { tone, text: checks.length > 1 ? String(checks.length) : '' };
    case 'uptime': {
      let passed = 0;
      let failed = 0;
      for (const check of checks) {
        passed += check.uptime.passed;
        failed += check.uptime.failed;
      }
      return { tone, text: formatUptime(passed, failed) };
    }
    case 'latency': {
      let slowest: number | null = null;
      for (const check of checks) if (check.latency.p95 !== null && (slowest === null || check.latency.p95 > slowest)) slowest = check.latency.p95;
      return { tone, text: formatLatency(slowest) };
    }
  }
}
