import { Trash2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import type { ResourceTabProps } from '@web/features/settings/resources/types';
import { valueToText } from '@web/features/settings/resources/values';
import { PersonCell } from '@web/ui/person-cell';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { DateTime } from '@web/ui/primitives/date-time';
import { IconButton } from '@web/ui/primitives/icon-button';
import { AddMembersDialog } from './add-members-dialog';
import { personLabel, type Person } from '@web/lib/people';
import { useRemoveMember, useTeamMembers, type TeamMember } from './queries';

/** Spec §8 empty text of the Members tab. */
export const NO_MEMBERS_TEXT = "You haven't added any team members to the team yet.";

/** The Members tab of a team (spec "Generic resource editor"): who is in it, add and remove people. */
export default function MembersTab({ id, row, access, linked }: ResourceTabProps) {
  const teamName = valueToText(row.name);
  const members = useTeamMembers(id);
  const remove = useRemoveMember(id);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Person | null>(null);
  // Spec §4: a linked team is read-only here, its members included.
  const canAdd = access.create && linked === undefined;
  const canRemove = access.delete && linked === undefined;
  const rows = members.data ?? [];

  const columns: ColumnDef<TeamMember>[] = [
    { id: 'name', header: 'Name', accessorFn: (member) => personLabel(member.person), cell: ({ row: { original } }) => <PersonCell {...original.person} /> },
    { id: 'email', header: 'Email', accessorFn: (member) => member.person.email ?? '' },
    { id: 'created_at', header: 'Added', accessorKey: 'created_at', cell: ({ row: { original } }) => <DateTime value={original.created_at} /> },
  ];
  if (canRemove) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row: { original } }) => (
        <IconButton
          label={`Remove ${personLabel(original.person)}`}
          icon={<Trash2 className="size-4" aria-hidden="true" />}
          onClick={(event) => {
            // The row itself is not a link; keep the click on the button.
            event.stopPropagation();
            setRemoving(original.person);
          }}
        />
      ),
    });
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{members.isSuccess ? `${rows.length} ${rows.length === 1 ? 'member' : 'members'}` : ''}</p>
        {canAdd ? (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <UserPlus className="size-4" aria-hidden="true" />
            Add members
          </Button>
        ) : null}
      </div>
      {members.error ? (
        <p role="alert" className="text-sm text-red-600">
          {members.error.message}
        </p>
      ) : null}
      <DataTable
        aria-label="Team members"
        data={rows}
        columns={columns}
        getRowId={(member) => member.person_id}
        isLoading={members.isLoading}
        emptyText={NO_MEMBERS_TEXT}
      />
      {adding ? <AddMembersDialog teamId={id} teamName={teamName} memberIds={new Set(rows.map((member) => member.person_id))} onClose={() => setAdding(false)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove member"
        description={removing ? `Are you sure you want to remove ${personLabel(removing)} from ${teamName}?` : ''}
        confirmLabel="Remove"
        busyLabel="Removing…"
        busy={remove.isPending}
        onConfirm={() => {
          if (removing) remove.mutate(removing, { onSuccess: () => setRemoving(null) });
        }}
      />
    </div>
  );
}
