import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ApiError } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import { useInviteUser } from './queries';
import { ROLE_DESCRIPTIONS, ROLE_OPTIONS } from './roles';
import { DEFAULT_INVITE_ROLE, inviteFormSchema, type InviteForm, type InviteResult } from './schema';

export interface InviteDialogProps {
  onClose: () => void;
  /** The account exists: the page shows how the invitation reaches the person. */
  onInvited: (result: InviteResult) => void;
}

/** Spec §7 invite: first and last name, email and one role; the server creates the account. */
export function InviteDialog({ onClose, onInvited }: InviteDialogProps) {
  const invite = useInviteUser();
  const formId = useId();
  const form = useForm<InviteForm>({
    resolver: zodResolver(inviteFormSchema),
    // Spec §5: messages appear once a field is touched, then follow every change.
    mode: 'onTouched',
    defaultValues: { firstName: '', lastName: '', email: '', role: DEFAULT_INVITE_ROLE },
  });
  const { errors } = form.formState;
  const role = form.watch('role');

  const submit = form.handleSubmit((values) => {
    invite.mutate(values, {
      onSuccess: onInvited,
      onError: (error) => {
        // A taken address is about the Email field: say it there. Anything else is a toast (spec §8).
        if (error instanceof ApiError && error.status === 409) form.setError('email', { message: error.message }, { shouldFocus: true });
        else toast.error(error);
      },
    });
  });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Invite user"
      description="They get an account with this role and choose their password with a one-time code."
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" disabled={invite.isPending}>
            {invite.isPending ? 'Inviting…' : 'Invite'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
        <div className="grid grid-cols-2 gap-3">
          <Field label="First name" autoComplete="off" autoFocus error={errors.firstName?.message} {...form.register('firstName')} />
          <Field label="Last name" autoComplete="off" error={errors.lastName?.message} {...form.register('lastName')} />
        </div>
        <Field label="Email" type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
        <div>
          <Controller control={form.control} name="role" render={({ field }) => <Select label="Role" value={field.value} options={ROLE_OPTIONS} onValueChange={field.onChange} />} />
          <p className="mt-1 text-xs text-slate-500">{ROLE_DESCRIPTIONS[role]}</p>
        </div>
      </form>
    </Dialog>
  );
}
