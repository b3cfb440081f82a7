import { zodResolver } from '@hookform/resolvers/zod';
import { Lock } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import { FieldError } from './field-error';
import { actionOptions, EMPTY_FORM, formOf, payloadOf, permissionFormSchema, type PermissionFormValues } from './form';
import { useCreatePermission, useDeletePermission, useUpdatePermission } from './queries';
import { ResourceFields } from './resource-fields';
import type { Permission } from './schema';
import { SubjectFields } from './subject-fields';

export interface PermissionDialogProps {
  /** The row being edited or shown, or null to add one. */
  permission: Permission | null;
  /** Why the row cannot be changed here; the dialog then only shows it. */
  readOnlyReason?: string;
  onClose: () => void;
}

/** Spec §2 add/edit dialog of a permission, with delete behind a confirmation (spec §5). */
export function PermissionDialog({ permission, readOnlyReason, onClose }: PermissionDialogProps) {
  const editing = permission !== null;
  const readOnly = readOnlyReason !== undefined;
  const create = useCreatePermission();
  const update = useUpdatePermission();
  const remove = useDeletePermission();
  const [confirming, setConfirming] = useState(false);
  const formId = useId();
  const form = useForm<PermissionFormValues>({
    resolver: zodResolver(permissionFormSchema),
    // Spec §5: messages once a field is touched, then on every change.
    mode: 'onTouched',
    defaultValues: permission ? formOf(permission) : EMPTY_FORM,
  });
  const { errors, touchedFields, isSubmitted } = form.formState;
  const [resourceKind, object, action] = useWatch({ control: form.control, name: ['resourceKind', 'object', 'action'] });
  const saving = create.isPending || update.isPending;

  const submit = form.handleSubmit(async (values) => {
    const payload = payloadOf(values);
    if (permission) await update.mutateAsync({ id: permission.id, payload });
    else await create.mutateAsync(payload);
    onClose();
  });

  const title = readOnly ? 'Permission' : editing ? 'Edit permission' : 'Add permission';
  return (
    <Dialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={title}
      size="medium"
      footer={
        readOnly ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            {editing ? (
              <Button variant="danger" className="mr-auto" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            ) : null}
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" form={formId} variant="primary" disabled={saving}>
              {saving ? (editing ? 'Updating' : 'Saving') : editing ? 'Update' : 'Save'}
            </Button>
          </>
        )
      }
    >
      {readOnly ? (
        <p role="note" className="mb-4 flex items-start gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
          <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{readOnlyReason}</span>
        </p>
      ) : null}
      <FormProvider {...form}>
        <form
          id={formId}
          noValidate
          onSubmit={(event) => {
            // Failures already toast the server's message (the query client); the dialog stays to retry.
            submit(event).catch(() => undefined);
          }}
        >
          {/* A disabled fieldset disables every control inside it, pickers and list buttons included. */}
          <fieldset disabled={readOnly} className="flex flex-col gap-5">
            <Section title="Subject">
              <SubjectFields knownPerson={permission?.person ?? null} />
            </Section>
            <Section title="Resource">
              <ResourceFields />
            </Section>
            <Section title="Access">
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-[12rem_1fr]">
                <div className="flex flex-col gap-1">
                  <Select
                    label="Action"
                    value={action}
                    options={actionOptions({ resourceKind, object, action }).map((value) => ({ value, label: value }))}
                    onValueChange={(value) => form.setValue('action', value, { shouldDirty: true, shouldTouch: true, shouldValidate: true })}
                  />
                  <FieldError message={touchedFields.action || isSubmitted ? errors.action?.message : undefined} />
                </div>
                <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-700">
                  <input type="checkbox" className="size-4 rounded border-slate-300" {...form.register('deny')} />
                  Deny
                  <span className="text-xs text-slate-500">(a deny wins over every allow)</span>
                </label>
              </div>
              <TextAreaField label="Description" rows={2} error={errors.description?.message} {...form.register('description')} />
              <Field label="Until" type="datetime-local" hint="Leave empty for a permission without an end." error={errors.until?.message} {...form.register('until')} />
            </Section>
          </fieldset>
        </form>
      </FormProvider>
      {permission && !readOnly ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Delete permission"
          description="Are you sure you want to delete this permission? What it allows or denies stops applying at once."
          busy={remove.isPending}
          onConfirm={() =>
            remove.mutate(permission.id, {
              onSuccess: () => {
                setConfirming(false);
                onClose();
              },
            })
          }
        />
      ) : null}
    </Dialog>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {children}
    </section>
  );
}
