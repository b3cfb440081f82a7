import { formatGroupUptime, formatRelative } from '@common/format';
import type { ColumnDef, Row, SortingFn } from '@tanstack/react-table';
import type { CheckSummary } from '../api/schema';
import { checkTone, displayName, groupKeyFn, groupTone, groupUptime, TONE_RANK, uptimeRatio, type HealthTone } from '../state/checks';
import { CheckIcon } from '@web/ui/check-icon';
import { HealthCell, HealthDot, LatencyCell, UptimeCell } from './cells';

/** The grouping column's id: the expander of spec §2. */
export const GROUP_COLUMN_ID = 'group';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
// Intl.Collator is several times faster than tanstack's 'alphanumeric' on 10,000 names.
const byText: SortingFn<CheckSummary> = (a, b, id) => collator.compare(String(a.getValue(id) ?? ''), String(b.getValue(id) ?? ''));

const RANK_TONES = Object.fromEntries(Object.entries(TONE_RANK).map(([tone, rank]) => [rank, tone]));
function toneOfRank(rank: unknown): HealthTone {
  const tone: unknown = typeof rank === 'number' ? RANK_TONES[rank] : undefined;
  return tone === 'healthy' || tone === 'unhealthy' || tone === 'mixed' ? tone : 'unknown';
}

const leaves = (rows: Row<CheckSummary>[]) => rows.map((row) => row.original);
const time = (value: string | null) => (value ? Date.parse(value) : undefined);

/** The check column: icon and display name; a group row shows the group's name. */
function CheckNameCell({ check }: { check: CheckSummary }) {
  const name = displayName(check);
  return (
    <span className="flex min-w-0 items-center gap-2">
      <CheckIcon icon={check.icon} type={check.type} />
      <span className="truncate" title={name}>
        {name}
      </span>
    </span>
  );
}

/**
 * Columns of spec §2: expander (when grouped), Checks, Health, Uptime, Latency, Transition. Values are
 * numbers where they sort (health by severity, times as epoch ms) so group rows aggregate and sort too.
 */
export function checkColumns(groupBy: string): ColumnDef<CheckSummary>[] {
  const groupKey = groupKeyFn(groupBy);
  const columns: ColumnDef<CheckSummary>[] = [];
  if (groupKey) {
    columns.push({
      id: GROUP_COLUMN_ID,
      header: () => <span className="sr-only">Expand</span>,
      accessorFn: groupKey,
      enableSorting: false,
      size: 64,
      // The table draws the chevron and the count; the group's name is in the Checks column.
      cell: () => null,
    });
  }
  columns.push(
    {
      id: 'name',
      header: 'Checks',
      accessorFn: displayName,
      sortingFn: byText,
      aggregationFn: (_id, rows) => {
        const first = rows[0];
        return first && groupKey ? groupKey(first.original) : '';
      },
      cell: ({ row }) => <CheckNameCell check={row.original} />,
      aggregatedCell: ({ row }) => <span className="font-medium text-slate-900">{String(row.groupingValue ?? '')}</span>,
    },
    {
      id: 'status',
      header: 'Health',
      accessorFn: (check) => TONE_RANK[checkTone(check)],
      aggregationFn: (_id, rows) => TONE_RANK[groupTone(leaves(rows))],
      size: 200,
      cell: ({ row }) => <HealthCell check={row.original} />,
      aggregatedCell: ({ row }) => <HealthDot tone={toneOfRank(row.getValue('status'))} />,
    },
    {
      id: 'uptime',
      header: 'Uptime',
      accessorFn: uptimeRatio,
      sortUndefined: 'last',
      aggregationFn: (_id, rows) => {
        const { passing, total } = groupUptime(leaves(rows));
        return total > 0 ? passing / total : undefined;
      },
      size: 110,
      cell: ({ row }) => <UptimeCell check={row.original} />,
      aggregatedCell: ({ row }) => {
        const { passing, total } = groupUptime(leaves(row.getLeafRows()));
        return <span className="tabular-nums">{formatGroupUptime(passing, total)}</span>;
      },
    },
    {
      id: 'latency',
      header: 'Latency',
      accessorFn: (check) => check.latency.p95 ?? undefined,
      sortUndefined: 'last',
      aggregationFn: 'max',
      size: 110,
      cell: ({ row }) => <LatencyCell ms={row.original.latency.p95} />,
      aggregatedCell: () => null,
    },
    {
      id: 'last_transition_time',
      header: 'Transition',
      accessorFn: (check) => time(check.last_transition_time),
      sortUndefined: 'last',
      aggregationFn: 'max',
      size: 110,
      cell: ({ row }) => <span title={row.original.last_transition_time ?? undefined}>{formatRelative(row.original.last_transition_time)}</span>,
      aggregatedCell: () => null,
    },
  );
  return columns;
}
