import type { ColumnDef } from '@web/ui/data-table';
import { Badge } from '@web/ui/primitives/badge';
import { DateTime } from '@web/ui/primitives/date-time';
import { healthBadge, lastSeenText } from './model';
import type { AgentSummary } from './schema';

export function HealthBadge({ health }: { health: string | null | undefined }) {
  const badge = healthBadge(health);
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}

/** 'Last seen' as an age ('2m ago', 'never'), the exact moment in the tooltip. */
export function LastSeen({ value, now }: { value: string | null | undefined; now: Date }) {
  return (
    <span title={value ?? undefined}>
      {value ? <time dateTime={value}>{lastSeenText(value, now)}</time> : lastSeenText(value, now)}
    </span>
  );
}

const numeric = 'text-right tabular-nums';

/** Sortable columns are sorted by the server (their ids are columns of /api/db/agents_summary). */
export function agentColumns(now: Date): ColumnDef<AgentSummary>[] {
  return [
    {
      id: 'name',
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row: { original } }) => (
        <span className="flex flex-col">
          <span className="font-medium text-slate-900">{original.name}</span>
          {original.description ? <span className="text-xs text-slate-500">{original.description}</span> : null}
        </span>
      ),
    },
    { id: 'version', accessorKey: 'version', header: 'Version', cell: ({ row }) => <span className="font-mono text-xs">{row.original.version ?? ''}</span> },
    { id: 'hostname', accessorKey: 'hostname', header: 'Hostname', cell: ({ row }) => row.original.hostname ?? '' },
    { id: 'last_seen', accessorKey: 'last_seen', header: 'Last seen', cell: ({ row }) => <LastSeen value={row.original.last_seen} now={now} /> },
    { id: 'health', accessorKey: 'health', header: 'Health', cell: ({ row }) => <HealthBadge health={row.original.health} /> },
    { id: 'checks', accessorKey: 'checks', header: 'Checks', cell: ({ row }) => <span className={numeric}>{row.original.checks}</span> },
    { id: 'configs', accessorKey: 'configs', header: 'Configs', cell: ({ row }) => <span className={numeric}>{row.original.configs}</span> },
    { id: 'created_at', accessorKey: 'created_at', header: 'Created', cell: ({ row }) => <DateTime value={row.original.created_at ?? null} /> },
  ];
}
