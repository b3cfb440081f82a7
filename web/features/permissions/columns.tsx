import type { ColumnDef } from '@web/ui/data-table';
import { DateTime } from '@web/ui/primitives/date-time';
import { EffectBadge, ResourceCell, SourceCell, SubjectCell } from './cells';
import type { Permission } from './schema';

/** Spec §2 Permissions table. Column ids of sortable columns are the server's sort keys. */
export const permissionColumns: ColumnDef<Permission>[] = [
  { accessorKey: 'subject_type', header: 'Subject', cell: ({ row }) => <SubjectCell permission={row.original} /> },
  { accessorKey: 'object', header: 'Resource', cell: ({ row }) => <ResourceCell permission={row.original} /> },
  { accessorKey: 'action', header: 'Action', cell: ({ row }) => <span className="font-mono text-xs">{row.original.action}</span> },
  { accessorKey: 'deny', header: 'Effect', cell: ({ row }) => <EffectBadge deny={row.original.deny} /> },
  { id: 'description', header: 'Description', enableSorting: false, cell: ({ row }) => <span className="line-clamp-2 text-slate-700">{row.original.description}</span> },
  { accessorKey: 'until', header: 'Until', cell: ({ row }) => <DateTime value={row.original.until} /> },
  { accessorKey: 'source', header: 'Source', cell: ({ row }) => <SourceCell permission={row.original} /> },
  { id: 'created_by', header: 'Created by', enableSorting: false, cell: ({ row }) => row.original.created_by_person?.name ?? '' },
  { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => <DateTime value={row.original.created_at} /> },
];
