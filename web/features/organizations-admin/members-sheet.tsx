import { zodResolver } from '@hookform/resolvers/zod';
import { isRole, ROLES, type Role } from '@common/rbac';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ApiError } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { Badge } from '@web/ui/primitives/badge';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Field } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import { Select } from '@web/ui/primitives/select';
import { Sheet } from '@web/ui/primitives/sheet';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { useInviteMember, useMembers, useRemoveMember, useSetMemberRole } from './queries';
import { inviteFormSchema, type InviteForm, type Member, type Organization } from './schema';

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer', guest: 'Guest', commander: 'Commander', responder: 'Responder' };
// Spec §6 roles inside the organization; 'none': no role named, a viewer there (docs/HOSTED.md "Roles per organization").
const ROLE_CHOICES = [{ value: 'none' as const, label: 'Default (viewer)' }, ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))];

function InviteRow({ organizationId }: { organizationId: string }) {
  const invite = useInviteMember(organizationId);
  const form = useForm<InviteForm>({ resolver: zodResolver(inviteFormSchema), defaultValues: { email: '', role: 'none' } });
  const submit = form.handleSubmit((values) => {
    invite.mutate(
      { email: values.email, role: isRole(values.role) ? values.role : null },
      {
        onSuccess: () => form.reset(),
        onError: (error) => {
          if (error instanceof ApiError && (error.status === 409 || error.status === 400)) form.setError('email', { message: error.message }, { shouldFocus: true });
          else toast.error(error);
        },
      },
    );
  });
  return (
    <form aria-label="Invite member" noValidate className="flex items-end gap-2" onSubmit={(event) => void submit(event)}>
      <Field label="Email" type="email" autoComplete="off" className="flex-1" error={form.formState.errors.email?.message} {...form.register('email')} />
      <Controller control={form.control} name="role" render={({ field }) => <Select label="Role" value={field.value} options={ROLE_CHOICES} onValueChange={field.onChange} />} />
      <Button type="submit" variant="primary" disabled={invite.isPending}>
        {invite.isPending ? 'Inviting…' : 'Invite'}
      </Button>
    </form>
  );
}

function MemberRow({ organizationId, member, onRemove }: { organizationId: string; member: Member; onRemove: (member: Member) => void }) {
  const setRole = useSetMemberRole(organizationId);
  const label = member.name || member.email || member.person_id;
  return (
    <tr className="border-t border-slate-100">
      <td className="py-2 pr-3">
        <div className="font-medium text-slate-900">{member.name}</div>
        <div className="text-xs text-slate-500">{member.email}</div>
      </td>
      <td className="py-2 pr-3">
        <Select
          label={`Role of ${label}`}
          hideLabel
          value={member.role ?? 'none'}
          options={ROLE_CHOICES}
          onValueChange={(value) => setRole.mutate({ member, role: isRole(value) ? value : null })}
        />
      </td>
      <td className="py-2 pr-3">{member.source === 'claim' ? <Badge tone="info">From provider</Badge> : <Badge tone="neutral">Console</Badge>}</td>
      <td className="py-2 text-right">
        <Button size="sm" variant="ghost" aria-label={`Remove ${label}`} onClick={() => onRemove(member)}>
          Remove
        </Button>
      </td>
    </tr>
  );
}

/** Members of one organization: invite by email, role inside it, removal (a provider's member is the provider's to remove). */
export function MembersSheet({ organization, onClose }: { organization: Organization; onClose: () => void }) {
  const members = useMembers(organization.id);
  const remove = useRemoveMember(organization.id);
  const [removing, setRemoving] = useState<Member | null>(null);
  const rows = members.data ?? [];
  const label = removing ? removing.name || removing.email || 'this member' : '';
  return (
    <Sheet title={`Members of ${organization.name}`} onClose={onClose}>
      <div className="flex flex-col gap-4">
        <InviteRow organizationId={organization.id} />
        {members.error ? (
          <p role="alert" className="text-sm text-red-600">
            {members.error.message}
          </p>
        ) : null}
        {members.isLoading ? (
          <Loading />
        ) : rows.length === 0 ? (
          <EmptyState title="No members yet" description="Invite people by email; the sign-in provider's organization claim adds its members at their sign-in." />
        ) : (
          <table aria-label="Members" className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs uppercase text-slate-500">
                <th className="pb-2">Person</th>
                <th className="pb-2">Role</th>
                <th className="pb-2">Source</th>
                <th className="pb-2" />
              </tr>
            </thead>
            <tbody>
              {rows.map((member) => (
                <MemberRow key={member.person_id} organizationId={organization.id} member={member} onRemove={setRemoving} />
              ))}
            </tbody>
          </table>
        )}
      </div>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove ${label}?`}
        description={
          removing?.source === 'claim'
            ? "This membership comes from the sign-in provider's organization claim: the console cannot remove it. Remove the person from the organization at the provider."
            : `${label} can no longer work in ${organization.name}.`
        }
        confirmLabel="Remove"
        busyLabel="Removing…"
        busy={remove.isPending}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing, { onSettled: () => setRemoving(null) });
        }}
      />
    </Sheet>
  );
}
