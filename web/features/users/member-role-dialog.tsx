import { ROLES, type Role } from '@common/rbac';
import { useId, useState } from 'react';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { RadioGroup } from '@web/ui/primitives/radio-group';
import { useUpdatePerson } from './queries';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from './roles';
import type { PersonRow } from './schema';

const OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/**
 * Hosted mode (docs/HOSTED.md "Roles per organization"): a member holds one role in the organization the
 * console works in, and that role is what counts there; the person's own roles do not. The server changes
 * the membership's role (POST /api/people/update in an organization).
 */
export function MemberRoleDialog({ person, organization, onClose }: { person: PersonRow; organization: string; onClose: () => void }) {
  const update = useUpdatePerson();
  const formId = useId();
  const [role, setRole] = useState<Role>(person.roles[0] ?? 'viewer');
  const name = person.name || person.email || 'user';

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Edit role of ${name} in ${organization}`}
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" disabled={update.isPending}>
            {update.isPending ? 'Updating' : 'Update'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({ person, roles: [role] }, { onSuccess: onClose });
        }}
      >
        <p className="mb-3 text-sm text-slate-600">Roles are per organization: this is {name}’s role in {organization} only.</p>
        <RadioGroup label={`Role in ${organization}`} value={role} options={OPTIONS} onValueChange={setRole} />
        <p className="mt-3 text-xs text-slate-500">{ROLE_DESCRIPTIONS[role]}</p>
      </form>
    </Dialog>
  );
}
