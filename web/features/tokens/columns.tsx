import { Trash2 } from 'lucide-react';
import type { ColumnDef } from '@web/ui/data-table';
import { DateTime } from '@web/ui/primitives/date-time';
import { IconButton } from '@web/ui/primitives/icon-button';
import type { Token } from './schema';
import { scopeSummary } from './scopes';

/**
 * The Tokens table: name, scopes, owner (for admins, who see everyone's), the organization (hosted mode
 * only), dates and a delete button.
 */
export function tokenColumns({
  showOwner,
  showOrganization,
  onDelete,
}: {
  showOwner: boolean;
  showOrganization: boolean;
  onDelete: (token: Token) => void;
}): ColumnDef<Token>[] {
  const owner: ColumnDef<Token>[] = showOwner
    ? [{ id: 'owner', header: 'Owner', accessorFn: (token) => token.person?.name ?? '', cell: ({ row }) => <span title={row.original.person?.email ?? undefined}>{row.original.person?.name}</span> }]
    : [];
  const organization: ColumnDef<Token>[] = showOrganization
    ? [
        {
          id: 'organization',
          header: 'Organization',
          accessorFn: (token) => token.organization?.name ?? '',
          cell: ({ row }) => (row.original.organization ? row.original.organization.name : <span className="text-slate-500">none</span>),
        },
      ]
    : [];
  return [
    { accessorKey: 'name', header: 'Name', cell: ({ row }) => <span className="font-medium text-slate-900">{row.original.name}</span> },
    { id: 'scopes', header: 'Scopes', enableSorting: false, cell: ({ row }) => <span className="text-xs text-slate-700">{scopeSummary(row.original.scopes)}</span> },
    ...owner,
    ...organization,
    { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => <DateTime value={row.original.created_at} /> },
    { accessorKey: 'expires_at', header: 'Expires', cell: ({ row }) => <DateTime value={row.original.expires_at} empty="never" /> },
    { accessorKey: 'last_used_at', header: 'Last used', cell: ({ row }) => <DateTime value={row.original.last_used_at} empty="never" /> },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => (
        <IconButton label={`Delete ${row.original.name}`} onClick={() => onDelete(row.original)} icon={<Trash2 className="size-4" aria-hidden="true" />} />
      ),
    },
  ];
}
