import { MoreHorizontal, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { DropdownMenu, DropdownMenuItem, DropdownMenuSeparator } from '@web/ui/primitives/dropdown-menu';
import { IconButton } from '@web/ui/primitives/icon-button';
import { useDeletePerson, useUpdatePerson } from './queries';
import { MemberRoleDialog } from './member-role-dialog';
import { RolesDialog } from './roles-dialog';
import type { PersonRow } from './schema';

export type UserAction = { kind: 'roles' | 'state' | 'delete'; person: PersonRow };

export interface UserPermissions {
  /** Change a person's roles (in hosted mode: their role in the organization worked in). */
  roles: boolean;
  /** Change a person's account: activate, deactivate. */
  update: boolean;
  delete: boolean;
}

/**
 * Hosted mode (docs/HOSTED.md "Roles per organization"): the organization the console works in. Its
 * people's roles are their memberships' (one each), and a person who is not a member has none to edit.
 */
export interface UsersOrganization {
  id: string;
  name: string;
}

export const personName = (person: PersonRow): string => person.name || person.email || 'this user';

/**
 * The row menu of a user. The signed-in person cannot deactivate or delete their own account here (the
 * server refuses deleting it, and deactivating it would end this very session).
 */
export function UserActionsMenu({
  person,
  self,
  can,
  organization,
  onAction,
}: {
  person: PersonRow;
  self: boolean;
  can: UserPermissions;
  organization: UsersOrganization | undefined;
  onAction: (action: UserAction) => void;
}) {
  const editRoles = can.roles && !(organization && person.roles.length === 0);
  // Nothing to offer for this row (in an organization: a person who is not a member of it).
  if (!editRoles && !can.update && !can.delete) return null;
  return (
    <div onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
      <DropdownMenu
        label={`Actions for ${personName(person)}`}
        trigger={<IconButton label={`Actions for ${personName(person)}`} noTooltip icon={<MoreHorizontal className="size-4" aria-hidden="true" />} />}
      >
        {editRoles ? (
          <DropdownMenuItem onSelect={() => onAction({ kind: 'roles', person })}>
            <Pencil className="size-4" aria-hidden="true" />
            {organization ? 'Edit role' : 'Edit roles'}
          </DropdownMenuItem>
        ) : null}
        {can.update ? (
          <DropdownMenuItem disabled={self} onSelect={() => onAction({ kind: 'state', person })}>
            {person.state === 'active' ? <PowerOff className="size-4" aria-hidden="true" /> : <Power className="size-4" aria-hidden="true" />}
            {person.state === 'active' ? 'Deactivate' : 'Activate'}
          </DropdownMenuItem>
        ) : null}
        {(editRoles || can.update) && can.delete ? <DropdownMenuSeparator /> : null}
        {can.delete ? (
          <DropdownMenuItem disabled={self} className="text-red-700" onSelect={() => onAction({ kind: 'delete', person })}>
            <Trash2 className="size-4" aria-hidden="true" />
            Delete
          </DropdownMenuItem>
        ) : null}
      </DropdownMenu>
    </div>
  );
}

/** The dialog of the chosen action; it closes when the change succeeded and stays open to retry a failure. */
export function UserActionDialog({ action, organization, onClose }: { action: UserAction | null; organization: UsersOrganization | undefined; onClose: () => void }) {
  const update = useUpdatePerson();
  const remove = useDeletePerson();
  if (!action) return null;
  const { person } = action;
  const name = personName(person);
  if (action.kind === 'roles') {
    return organization ? <MemberRoleDialog person={person} organization={organization.name} onClose={onClose} /> : <RolesDialog person={person} onClose={onClose} />;
  }
  if (action.kind === 'state') {
    const deactivate = person.state === 'active';
    return (
      <ConfirmDialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={deactivate ? 'Deactivate user' : 'Activate user'}
        description={
          deactivate
            ? `${name} will be signed out everywhere and cannot sign in until the account is activated again. Their API tokens stop working.`
            : `${name} will be able to sign in again.`
        }
        confirmLabel={deactivate ? 'Deactivate' : 'Activate'}
        busyLabel={deactivate ? 'Deactivating…' : 'Activating…'}
        destructive={deactivate}
        busy={update.isPending}
        onConfirm={() => update.mutate({ person, state: deactivate ? 'inactive' : 'active' }, { onSuccess: onClose })}
      />
    );
  }
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete user"
      description={`Are you sure you want to delete ${name}? Their account, sessions, tokens and team memberships go; what they created keeps their name.`}
      busy={remove.isPending}
      onConfirm={() => remove.mutate(person, { onSuccess: onClose })}
    />
  );
}
