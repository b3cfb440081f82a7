import { zodResolver } from '@hookform/resolvers/zod';
import { ROLES } from '@common/rbac';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { useUpdatePerson } from './queries';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from './roles';
import { rolesFormSchema, type PersonRow, type RolesForm } from './schema';

/** Edit roles: one checkbox per spec §6 role, at least one checked. */
export function RolesDialog({ person, onClose }: { person: PersonRow; onClose: () => void }) {
  const update = useUpdatePerson();
  const formId = useId();
  const errorId = useId();
  const form = useForm<RolesForm>({ resolver: zodResolver(rolesFormSchema), mode: 'onChange', defaultValues: { roles: [...person.roles] } });
  const error = form.formState.errors.roles?.message;

  const submit = form.handleSubmit((values) => update.mutate({ person, roles: values.roles }, { onSuccess: onClose }));

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Edit roles of ${person.name || person.email || 'user'}`}
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
      <form id={formId} noValidate onSubmit={(event) => void submit(event)}>
        <Controller
          control={form.control}
          name="roles"
          render={({ field }) => (
            <fieldset aria-describedby={error ? errorId : undefined} className="flex flex-col gap-1">
              <legend className="mb-2 text-sm font-medium text-slate-700">Roles</legend>
              {ROLES.map((role) => (
                <div key={role} className="flex items-start gap-3 rounded-md px-2 py-1.5 hover:bg-slate-50">
                  <input
                    id={`${formId}-${role}`}
                    type="checkbox"
                    aria-describedby={`${formId}-${role}-description`}
                    className="mt-0.5 size-4"
                    checked={field.value.includes(role)}
                    onChange={(event) => field.onChange(event.target.checked ? ROLES.filter((r) => r === role || field.value.includes(r)) : field.value.filter((r) => r !== role))}
                  />
                  <div>
                    <label htmlFor={`${formId}-${role}`} className="block cursor-pointer text-sm font-medium text-slate-900">
                      {ROLE_LABELS[role]}
                    </label>
                    <p id={`${formId}-${role}-description`} className="text-xs text-slate-500">
                      {ROLE_DESCRIPTIONS[role]}
                    </p>
                  </div>
                </div>
              ))}
            </fieldset>
          )}
        />
        {error ? (
          <p id={errorId} role="alert" className="mt-2 text-xs text-red-600">
            {error}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
