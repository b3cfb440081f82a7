import type { ColumnDef } from '@tanstack/react-table';
import { connectionType } from '@common/connections';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { DateTime } from '@web/ui/primitives/date-time';
import { connectionIcon } from './icons';
import type { ConnectionRow } from './schema';

export function TypeIcon({ type, className = 'size-4' }: { type: string; className?: string }) {
  const Icon = connectionIcon(type);
  return <Icon className={className} aria-hidden="true" />;
}

/** The type's label, or the stored type itself when this build does not know it. */
export function typeLabel(type: string): string {
  return connectionType(type)?.label ?? type;
}

/** Sortable columns are sorted by the server (their ids are columns of /api/db/connections). */
export const connectionColumns: ColumnDef<ConnectionRow>[] = [
  {
    id: 'type',
    header: 'Type',
    accessorKey: 'type',
    cell: ({ row: { original } }) => (
      <span className="flex items-center gap-2 text-slate-700" title={typeLabel(original.type)}>
        <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-600">
          <TypeIcon type={original.type} />
        </span>
        <span>{typeLabel(original.type)}</span>
      </span>
    ),
  },
  {
    id: 'name',
    header: 'Name',
    accessorKey: 'name',
    cell: ({ row: { original } }) => (
      <span className="flex items-center gap-2">
        <span className="font-medium text-slate-900">{original.name}</span>
        {original.source && original.source !== 'UI' ? <SourceBadge source={original.source} /> : null}
      </span>
    ),
  },
  { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
  {
    id: 'url',
    header: 'URL',
    enableSorting: false,
    // As the server answers it: credentials in the URL are already masked.
    cell: ({ row: { original } }) => <span className="block max-w-md truncate font-mono text-xs text-slate-700">{original.url ?? ''}</span>,
  },
  { id: 'created_by', header: 'Created by', enableSorting: false, cell: ({ row: { original } }) => original.created_by_person?.name ?? '' },
  { id: 'created_at', header: 'Created', accessorKey: 'created_at', cell: ({ row: { original } }) => <DateTime value={original.created_at} /> },
  { id: 'updated_at', header: 'Updated', accessorKey: 'updated_at', cell: ({ row: { original } }) => <DateTime value={original.updated_at ?? null} /> },
];
