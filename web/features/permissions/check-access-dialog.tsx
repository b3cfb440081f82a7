import { ACTIONS, RESOURCES, type Action, type Resource } from '@common/rbac';
import { useId, useState } from 'react';
import { useSession } from '@web/app/session';
import { Badge } from '@web/ui/primitives/badge';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Select } from '@web/ui/primitives/select';
import { PersonPicker } from './person-picker';
import { useCheckAccess } from './queries';
import type { CheckResult } from './schema';

const REASONS: Record<CheckResult['reason'], string> = {
  deny: 'a deny permission',
  permission: 'an allow permission',
  role: 'a role',
  token: "the API token's scopes",
  none: 'nothing: no role or permission grants it',
};

export interface CheckAccessDialogProps {
  onClose: () => void;
  /** Opens the permission that decided, in the permission dialog. */
  onOpenPermission: (id: string) => void;
}

/** Explains one access decision (POST /api/rbac/check): may this person do this action on this resource, and why. */
export function CheckAccessDialog({ onClose, onOpenPermission }: CheckAccessDialogProps) {
  const session = useSession();
  const me = session.status === 'ready' ? session.user : undefined;
  const [personId, setPersonId] = useState(me?.id ?? '');
  const [resource, setResource] = useState<Resource>('canaries');
  const [action, setAction] = useState<Action>('read');
  const check = useCheckAccess();
  const formId = useId();
  const result = check.data;

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && onClose()}
      title="Check access"
      description="Ask the server whether a person may do an action on a resource, and which rule decides it."
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button type="submit" form={formId} variant="primary" disabled={personId === '' || check.isPending}>
            {check.isPending ? 'Checking...' : 'Check'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (personId !== '') check.mutate({ person_id: personId, object: resource, action });
        }}
      >
        <PersonPicker
          label="Person"
          value={personId}
          known={me ? { id: me.id, name: me.name, email: me.email ?? null, avatar: me.avatar ?? null } : null}
          onChange={(id) => {
            setPersonId(id);
            check.reset();
          }}
        />
        <div className="grid grid-cols-2 gap-3">
          <Select
            label="Resource"
            value={resource}
            options={RESOURCES.map((value) => ({ value, label: value }))}
            onValueChange={(value) => {
              setResource(value);
              check.reset();
            }}
          />
          <Select
            label="Action"
            value={action}
            options={ACTIONS.map((value) => ({ value, label: value }))}
            onValueChange={(value) => {
              setAction(value);
              check.reset();
            }}
          />
        </div>
      </form>
      <div aria-live="polite" className="mt-4">
        {result ? (
          <div role="status" aria-label="Access decision" className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
            <div className="flex items-center gap-2">
              {result.allowed ? <Badge tone="success">Allowed</Badge> : <Badge tone="danger">Denied</Badge>}
              <span className="text-slate-700">
                {result.subject.name} ({result.subject.roles.join(', ') || 'no role'})
              </span>
            </div>
            <p className="text-slate-900">{result.explanation}</p>
            <p className="text-xs text-slate-500">Decided by {result.reason === 'role' && result.role ? `the role ${result.role}` : REASONS[result.reason]}.</p>
            {result.permission ? (
              <Button size="sm" className="self-start" onClick={() => result.permission && onOpenPermission(result.permission.id)}>
                Open the permission
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
    </Dialog>
  );
}
