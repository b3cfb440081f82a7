import { formatRelative } from '@common/format';
import { Link, useNavigate } from 'react-router';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Badge } from '@web/ui/primitives/badge';
import type { SummaryGroup } from '../api/schema';
import { ConfigIcon } from '../components/config-icon';
import { HealthBar } from './health-bar';
import { GROUP_BY_TYPE } from './filters';

/** Statuses of a group shown before '+N' (the full list is in the tooltip). */
const VISIBLE_STATUSES = 3;

export interface SummaryRow {
  id: string;
  /** The group's value: the type, or the tag value (null: items without the tag). */
  value: string | null;
  group: SummaryGroup;
  /** Where the group's items are listed; none for items without the tag. */
  href?: string;
}

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

function StatusPills({ status }: { status: Readonly<Record<string, number>> }) {
  const entries = Object.entries(status).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return null;
  const hidden = entries.length - VISIBLE_STATUSES;
  return (
    <span className="flex flex-wrap gap-1" title={entries.map(([name, n]) => `${name}: ${n}`).join(', ')}>
      {entries.slice(0, VISIBLE_STATUSES).map(([name, n]) => (
        <Badge key={name}>
          {name} <span className="tabular-nums text-slate-500">{n}</span>
        </Badge>
      ))}
      {hidden > 0 ? <span className="text-xs text-slate-500">+{hidden}</span> : null}
    </span>
  );
}

function insightsTitle(analysis: Readonly<Record<string, number>>): string {
  return Object.entries(analysis)
    .map(([type, n]) => `${type}: ${n}`)
    .join(', ');
}

function columns(groupBy: string): ColumnDef<SummaryRow>[] {
  const byType = groupBy === GROUP_BY_TYPE;
  return [
    {
      id: 'value',
      header: byType ? 'Type' : groupBy,
      accessorFn: (row) => row.value ?? '',
      cell: ({ row }) => {
        const { value, href } = row.original;
        const content = (
          <>
            {byType ? <ConfigIcon type={value} /> : null}
            {/* 'Kubernetes::HorizontalPodAutoscaler' may break after '::' so the columns after it fit at 900 px (issue 38). */}
            <span className="min-w-0">{value ? value.split('::').flatMap((part, i) => (i === 0 ? [part] : ['::', <wbr key={i} />, part])) : '(none)'}</span>
          </>
        );
        return href ? (
          <Link to={href} onClick={stop} className="inline-flex min-w-0 items-center gap-2 font-medium text-blue-700 hover:underline">
            {content}
          </Link>
        ) : (
          <span className="inline-flex min-w-0 items-center gap-2 text-slate-500">{content}</span>
        );
      },
    },
    { id: 'count', header: 'Count', accessorFn: (row) => row.group.count, cell: ({ row }) => <span className="tabular-nums">{row.original.group.count}</span> },
    {
      id: 'health',
      header: 'Health',
      // Problems first when sorted: the share of unhealthy, then warning items.
      accessorFn: (row) => ((row.group.health?.unhealthy ?? 0) * 1000 + (row.group.health?.warning ?? 0)) / Math.max(1, row.group.count),
      cell: ({ row }) => <HealthBar counts={row.original.group.health ?? {}} />,
    },
    { id: 'status', header: 'Status', enableSorting: false, cell: ({ row }) => <StatusPills status={row.original.group.status ?? {}} /> },
    {
      id: 'changes',
      header: 'Changes (7d)',
      accessorFn: (row) => row.group.changes ?? 0,
      cell: ({ row }) => <span className="tabular-nums">{row.original.group.changes ?? 0}</span>,
    },
    {
      id: 'insights',
      header: 'Insights',
      accessorFn: (row) => row.group.insights ?? 0,
      cell: ({ row }) => {
        const n = row.original.group.insights ?? 0;
        return n > 0 ? (
          <Badge tone="warning">
            <span title={insightsTitle(row.original.group.analysis ?? {})}>{n} open</span>
          </Badge>
        ) : (
          <span className="text-slate-400">0</span>
        );
      },
    },
    {
      id: 'updated_at',
      header: 'Updated',
      accessorFn: (row) => row.group.updated_at ?? '',
      cell: ({ row }) => {
        const updated = row.original.group.updated_at;
        return updated ? <span title={updated}>{formatRelative(updated)} ago</span> : null;
      },
    },
  ];
}

/** Spec §2 /catalog: one row per type (or tag value), each leading to its items. */
export function SummaryTable({ rows, groupBy, isLoading }: { rows: SummaryRow[]; groupBy: string; isLoading: boolean }) {
  const navigate = useNavigate();
  return (
    <DataTable
      aria-label="Catalog summary"
      data={rows}
      columns={columns(groupBy)}
      getRowId={(row) => row.id}
      isLoading={isLoading}
      onRowClick={(row) => (row.href ? void navigate(row.href) : undefined)}
    />
  );
}
