import type { ColumnDef } from '@tanstack/react-table';
import { Button } from '@web/ui/primitives/button';
import { DateTime } from '@web/ui/primitives/date-time';
import type { Organization } from './schema';

export interface OrganizationActions {
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: (organization: Organization) => void;
  onMembers: (organization: Organization) => void;
  onDelete: (organization: Organization) => void;
}

/** Sorting is the page's (the URL's), on the rows it was given. */
export function organizationColumns(actions: OrganizationActions): ColumnDef<Organization>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      accessorKey: 'name',
      cell: ({ row: { original } }) => (
        <span className="flex flex-col leading-tight">
          <span className="font-medium text-slate-900">{original.name}</span>
          {original.external_id ? <span className="text-xs text-slate-500">{original.external_id}</span> : null}
        </span>
      ),
    },
    { id: 'members', header: 'Members', accessorKey: 'members' },
    {
      id: 'backend_url',
      header: 'Backend',
      accessorKey: 'backend_url',
      cell: ({ row: { original } }) =>
        original.backend_url ? (
          <span className="flex flex-col leading-tight">
            <span className="font-mono text-xs">{original.backend_url}</span>
            <span className="text-xs text-slate-500">{original.direct ? 'Direct' : 'Proxied'}</span>
          </span>
        ) : (
          <span className="text-slate-500">This server</span>
        ),
    },
    { id: 'created_at', header: 'Created', accessorKey: 'created_at', cell: ({ row: { original } }) => <DateTime value={original.created_at} /> },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row: { original } }) => (
        <span className="flex justify-end gap-1">
          <Button size="sm" variant="ghost" aria-label={`Members of ${original.name}`} onClick={() => actions.onMembers(original)}>
            Members
          </Button>
          {actions.canUpdate ? (
            <Button size="sm" variant="ghost" aria-label={`Edit ${original.name}`} onClick={() => actions.onEdit(original)}>
              Edit
            </Button>
          ) : null}
          {actions.canDelete ? (
            <Button size="sm" variant="ghost" aria-label={`Delete ${original.name}`} onClick={() => actions.onDelete(original)}>
              Delete
            </Button>
          ) : null}
        </span>
      ),
    },
  ];
}
