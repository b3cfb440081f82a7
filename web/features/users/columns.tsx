import type { ColumnDef } from '@tanstack/react-table';
import { formatRelative } from '@common/format/relative';
import { DateTime } from '@web/ui/primitives/date-time';
import { Badge } from '@web/ui/primitives/badge';
import { PersonCell } from '@web/ui/person-cell';
import { ROLE_LABELS } from './roles';
import type { PersonRow } from './schema';
import { UserActionsMenu, type UserAction, type UserPermissions, type UsersOrganization } from './user-actions';

/** Last sign-in: how long ago, over the date in the person's chosen format. */
function LastLogin({ value }: { value: string | null }) {
  if (!value) return <span className="text-slate-500">Never</span>;
  return (
    <span className="flex flex-col leading-tight">
      <span>{formatRelative(value)} ago</span>
      <DateTime value={value} className="text-xs text-slate-500" />
    </span>
  );
}

export interface UserColumnsOptions {
  selfId: string | undefined;
  can: UserPermissions;
  /** Hosted mode: the organization worked in, whose roles the page shows (docs/HOSTED.md "Roles per organization"). */
  organization?: UsersOrganization | undefined;
  onAction: (action: UserAction) => void;
}

/** Sortable columns are sorted by the server (their ids are people_roles columns). */
export function userColumns({ selfId, can, organization, onAction }: UserColumnsOptions): ColumnDef<PersonRow>[] {
  const columns: ColumnDef<PersonRow>[] = [
    {
      id: 'name',
      header: 'Name',
      accessorKey: 'name',
      cell: ({ row: { original } }) => <PersonCell name={original.name} email={original.email} avatar={original.avatar} you={original.id === selfId} />,
    },
    { id: 'email', header: 'Email', accessorKey: 'email' },
    {
      id: 'roles',
      // In an organization, people_roles holds the membership's role there (one), not the person's own.
      header: organization ? `Role in ${organization.name}` : 'Roles',
      enableSorting: false,
      cell: ({ row: { original } }) =>
        organization && original.roles.length === 0 ? (
          <span className="text-slate-500">Not a member</span>
        ) : (
          <span className="flex flex-wrap gap-1">
            {original.roles.map((role) => (
              <Badge key={role} tone={role === 'admin' ? 'info' : 'neutral'}>
                {ROLE_LABELS[role]}
              </Badge>
            ))}
          </span>
        ),
    },
    {
      id: 'teams',
      header: 'Teams',
      enableSorting: false,
      cell: ({ row: { original } }) => <span className="text-slate-700">{original.teams.map((team) => team.name).join(', ')}</span>,
    },
    {
      id: 'state',
      header: 'State',
      accessorKey: 'state',
      cell: ({ row: { original } }) => <Badge tone={original.state === 'active' ? 'success' : 'warning'}>{original.state === 'active' ? 'Active' : 'Inactive'}</Badge>,
    },
    { id: 'last_login', header: 'Last login', accessorKey: 'last_login', cell: ({ row: { original } }) => <LastLogin value={original.last_login} /> },
    { id: 'created_at', header: 'Created', accessorKey: 'created_at', cell: ({ row: { original } }) => <DateTime value={original.created_at} /> },
  ];
  if (can.roles || can.update || can.delete) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row: { original } }) => <UserActionsMenu person={original} self={original.id === selfId} can={can} organization={organization} onAction={onAction} />,
    });
  }
  return columns;
}
