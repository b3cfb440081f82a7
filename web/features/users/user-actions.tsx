import { MoreHorizontal, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { DropdownMenu, DropdownMenuItem, DropdownMenuSeparator } from '@web/ui/primitives/dropdown-menu';
import { IconButton } from '@web/ui/primitives/icon-button';
import { useDeletePerson, useUpdatePerson } from './queries';
import { RolesDialog } from './roles-dialog';
import type { PersonRow } from './schema';

export type UserAction = { kind: 'roles' | 'state' | 'delete'; person: PersonRow };

export interface UserPermissions {
  update: boolean;
  delete: boolean;
}

export const personName = (person: PersonRow): string => person.name || person.email || 'this user';

/**
 * The row menu of a user. The signed-in person cannot deactivate or delete their own account here (the
 * server refuses deleting it, and deactivating it would end this very session).
 */
export function UserActionsMenu({ person, self, can, onAction }: { person: PersonRow; self: boolean; can: UserPermissions; onAction: (action: UserAction) => void }) {
  return (
    <div onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
      <DropdownMenu
        label={`Actions for ${personName(person)}`}
        trigger={<IconButton label={`Actions for ${personName(person)}`} noTooltip icon={<MoreHorizontal className="size-4" aria-hidden="true" />} />}
      >
        {can.update ? (
          <>
            <DropdownMenuItem onSelect={() => onAction({ kind: 'roles', person })}>
              <Pencil className="size-4" aria-hidden="true" />
              Edit roles
            </DropdownMenuItem>
            <DropdownMenuItem disabled={self} onSelect={() => onAction({ kind: 'state', person })}>
              {person.state === 'active' ? <PowerOff className="size-4" aria-hidden="true" /> : <Power className="size-4" aria-hidden="true" />}
              {person.state === 'active' ? 'Deactivate' : 'Activate'}
            </DropdownMenuItem>
          </>
        ) : null}
        {can.update && can.delete ? <DropdownMenuSeparator /> : null}
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
export function UserActionDialog({ action, onClose }: { action: UserAction | null; onClose: () => void }) {
  const update = useUpdatePerson();
  const remove = useDeletePerson();
  if (!action) return null;
  const { person } = action;
  const name = personName(person);
  if (action.kind === 'roles') return <RolesDialog person={person} onClose={onClose} />;
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
