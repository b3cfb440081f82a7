import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ApiError } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field } from '@web/ui/primitives/field';
import { Switch } from '@web/ui/primitives/switch';
import { useSaveOrganization } from './queries';
import { organizationBody, organizationFormSchema, type Organization, type OrganizationForm } from './schema';

/** The server's field of a 400 issue or a 409 ("body.name", "name: …"), when the form has that field. */
function fieldOf(error: ApiError): { field: keyof OrganizationForm; message: string } | undefined {
  const fields: readonly (keyof OrganizationForm)[] = ['name', 'external_id', 'backend_url', 'direct'];
  const details: unknown = error.data && typeof error.data === 'object' ? Reflect.get(error.data, 'details') : undefined;
  const first: unknown = Array.isArray(details) ? details[0] : undefined;
  const path: unknown = first && typeof first === 'object' ? Reflect.get(first, 'path') : undefined;
  const message: unknown = first && typeof first === 'object' ? Reflect.get(first, 'message') : undefined;
  const field = fields.find((name) => path === `body.${name}`);
  return field && typeof message === 'string' ? { field: field === 'direct' ? 'backend_url' : field, message } : undefined;
}

export interface OrganizationDialogProps {
  /** Undefined: a new organization. */
  organization: Organization | undefined;
  onClose: () => void;
}

/** Create or edit: name, the provider's id, the backend URL and whether the browser calls it directly (spec §1). */
export function OrganizationDialog({ organization, onClose }: OrganizationDialogProps) {
  const save = useSaveOrganization(organization?.id);
  const formId = useId();
  const form = useForm<OrganizationForm>({
    resolver: zodResolver(organizationFormSchema),
    mode: 'onTouched',
    defaultValues: {
      name: organization?.name ?? '',
      external_id: organization?.external_id ?? '',
      backend_url: organization?.backend_url ?? '',
      direct: organization?.direct ?? false,
    },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) => {
    save.mutate(organizationBody(values), {
      onSuccess: onClose,
      onError: (error) => {
        const field = error instanceof ApiError && (error.status === 400 || error.status === 409) ? fieldOf(error) : undefined;
        if (field) form.setError(field.field, { message: field.message }, { shouldFocus: true });
        else toast.error(error);
      },
    });
  });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={organization ? `Edit ${organization.name}` : 'New organization'}
      description="Without a backend URL the organization works in this server's database."
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : organization ? 'Save' : 'Create'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
        <Field label="Name" markRequired autoComplete="off" autoFocus error={errors.name?.message} {...form.register('name')} />
        <Field label="External ID" hint="The id the sign-in provider's organization claim uses" autoComplete="off" error={errors.external_id?.message} {...form.register('external_id')} />
        <Field label="Backend URL" placeholder="https://team-a.example.com" autoComplete="off" error={errors.backend_url?.message} {...form.register('backend_url')} />
        <Controller
          control={form.control}
          name="direct"
          render={({ field }) => <Switch label="Direct: the browser calls the backend itself (otherwise this server forwards)" checked={field.value} onCheckedChange={field.onChange} />}
        />
      </form>
    </Dialog>
  );
}
