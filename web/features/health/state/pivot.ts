/**
 * The pivot (docs/HEALTH.md "Pivot"): built on the server from the list's filtered checks (POST
 * /api/health/checks with pivotBy; common/health-pivot.ts), rendered by views/pivot-table.tsx.
 */
export { ALL_COLUMN, PIVOT_CELL_CHECKS, pivotDimensions, summarisePivotCell, type PivotAnswer, type PivotCell, type PivotCellSummary } from '@common/health-pivot';
