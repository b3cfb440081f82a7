import { describe, expect, it } from 'vitest';
import { buildPivot, pivotCellPredicate, pivotDimensions, summarisePivotCell, type PivotableCheck } from './health-pivot';

const check = (id: string, over: Partial<PivotableCheck> = {}): PivotableCheck => ({
  id,
  name: `check-${id}`,
  canary_name: 'web',
  type: 'http',
  namespace: 'default',
  labels: {},
  status: 'healthy',
  uptime: { passed: 10, failed: 0 },
  latency: { p95: 100 },
  ...over,
});

describe('the pivot (common/health-pivot.ts, docs/HEALTH.md "Pivot")', () => {
  const checks = [
    check('1', { canary_name: 'web', labels: { env: 'prod' }, status: 'healthy', uptime: { passed: 9, failed: 1 } }),
    check('2', { canary_name: 'web', labels: { env: 'prod' }, status: 'unhealthy', uptime: { passed: 0, failed: 10 }, latency: { p95: 1200 } }),
    check('3', { canary_name: 'db', labels: { env: 'dev' } }),
    check('4', { canary_name: 'db', labels: {} }),
  ];

  it('puts pivotBy values in rows and pivotLabel values in columns, missing values last', () => {
    const pivot = buildPivot(checks, 'canary_name', 'env');
    expect(pivot.rows).toEqual(['db', 'web']);
    expect(pivot.columns).toEqual(['dev', 'prod', '(none)']);
    expect(pivot.totalRows).toBe(2);
    expect(pivot.totalColumns).toBe(3);
    const web = pivot.cells.find((cell) => cell.row === 1 && cell.column === 1);
    expect(web?.checks.map((c) => c.id)).toEqual(['1', '2']);
    expect(web).toMatchObject({ count: 2, status: 'mixed', passed: 9, failed: 11, latency: 1200 });
    expect(pivot.cells.some((cell) => cell.row === 1 && cell.column === 0)).toBe(false);
    expect(pivot.cells).toHaveLength(3);
    expect(buildPivot(checks, 'namespace', undefined).columns).toEqual(['All']);
  });

  it('sorts numeric-aware with (none) last, whatever the order of the checks', () => {
    const many = ['n10', 'n2', '(none)', 'n1'].map((value, i) => check(String(i), { labels: value === '(none)' ? {} : { n: value } }));
    expect(buildPivot(many, 'n', undefined).rows).toEqual(['n1', 'n2', 'n10', '(none)']);
  });

  it('bounds the grid and each cell, saying how many there were', () => {
    const many = Array.from({ length: 30 }, (_, i) => check(String(i), { labels: { row: `r${i % 10}`, column: `c${i % 3}` } }));
    const pivot = buildPivot(many, 'row', 'column', { maxRows: 4, maxColumns: 2, cellChecks: 2 });
    expect(pivot.rows).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(pivot.columns).toEqual(['c0', 'c1']);
    expect(pivot).toMatchObject({ totalRows: 10, totalColumns: 3 });
    expect(pivot.cells.every((cell) => cell.row < 4 && cell.column < 2)).toBe(true);
    const wide = buildPivot(many, 'namespace', undefined, { cellChecks: 2 });
    expect(wide.cells[0]).toMatchObject({ count: 30, checks: [{ id: '0', name: 'check-0', status: 'healthy' }, { id: '1' }] });
  });

  it('lists at most a budget of checks in the whole answer, cells in row order; the others carry none', () => {
    const many = Array.from({ length: 12 }, (_, i) => check(String(i), { labels: { row: `r${i % 4}` } }));
    const pivot = buildPivot(many, 'row', undefined, { listed: 7 });
    expect(pivot.cells.map((cell) => [cell.count, cell.checks.length])).toEqual([[3, 3], [3, 3], [3, 0], [3, 0]]);
  });

  it('keeps a grid of 50,000 checks in 250 x 60 values to 200 x 25 cells and 1,000 listed checks', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => check(`00000000-0000-0000-0000-${String(i).padStart(12, '0')}`, { name: `check-number-${i}`, canary_name: `canary-${i % 250}`, labels: { env: `e${Math.floor(i / 250) % 60}` } }));
    const pivot = buildPivot(many, 'canary_name', 'env');
    expect(pivot).toMatchObject({ totalRows: 250, totalColumns: 60 });
    expect(pivot.cells).toHaveLength(200 * 25);
    expect(pivot.cells.reduce((sum, cell) => sum + cell.checks.length, 0)).toBeLessThanOrEqual(1_000);
    // About 620 KB for this worst case (every cell of the bounded grid filled); the check list is not in it.
    expect(JSON.stringify(pivot).length).toBeLessThan(700_000);
  });

  it('finds the checks of one cell as the pivot placed them', () => {
    const inCell = pivotCellPredicate('canary_name', 'env', 'db', '(none)');
    expect(checks.filter(inCell).map((c) => c.id)).toEqual(['4']);
    expect(checks.filter(pivotCellPredicate('canary_name', undefined, 'web', 'All')).map((c) => c.id)).toEqual(['1', '2']);
  });

  it('sums a cell up as health, uptime or the slowest latency', () => {
    const cell = buildPivot(checks, 'canary_name', 'env').cells.find((c) => c.row === 1 && c.column === 1);
    if (!cell) throw new Error('no cell');
    expect(summarisePivotCell(cell, 'health')).toEqual({ tone: 'mixed', text: '2' });
    expect(summarisePivotCell(cell, 'uptime')).toEqual({ tone: 'mixed', text: '45.0%' });
    expect(summarisePivotCell(cell, 'latency').text).toBe('1.2s');
    expect(summarisePivotCell({ ...cell, count: 1 }, 'health').text).toBe('');
  });

  it('offers namespace and the group-by fields as dimensions', () => {
    expect(pivotDimensions(['no-group', 'canary_name', 'env'])).toEqual(['namespace', 'canary_name', 'env']);
  });
});
